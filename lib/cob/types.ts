/** Response shapes of the coordination-of-benefits search (docs/api.md#coordination-of-benefits). */

export const COB_CODES = [
  'MemberFoundNoCOB',
  'CoverageOverlapNoBenefitOverlap',
  'CoverageOverlapExistsNotSubjectToCob',
  'CobInstanceExistsPrimacyUndetermined',
  'CobInstanceExistsPrimacyDetermined',
] as const;

export type CobCode = (typeof COB_CODES)[number];

export type PayerPrimacy = 'PrimaryPayer' | 'SecondaryPayer' | 'TertiaryPayer' | 'Undetermined';

export interface ServiceTypeCode {
  code: string;
  name: string;
}

/** Every field is omitted when the upstream did not supply it: never null, "" or invented. */
interface RequestedPlanBenefit {
  payerName?: string;
  serviceTypeCodes: ServiceTypeCode[];
  benefitDate: { planStartDate?: string };
}

export interface AdditionalPlanBenefit {
  payerName?: string;
  payerPrimacy?: PayerPrimacy;
  serviceTypeCodes: ServiceTypeCode[];
  benefitDate: {
    overlapBeginDate?: string;
    overlapEndDate?: string;
    planStartDate?: string;
    planEndDate?: string;
    coordinationOfBenefits?: string;
  };
  subscriber: {
    firstName?: string;
    lastName?: string;
    dateOfBirth?: string;
    memberId?: string;
  };
}

export interface CobResult {
  cobCode: CobCode;
  requestedPlanBenefits: RequestedPlanBenefit[];
  additionalPlanBenefitInfo: AdditionalPlanBenefit[];
}
