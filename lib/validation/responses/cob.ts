/**
 * The coordination-of-benefits answer (docs/api.md#coordination-of-benefits), declared once: lib/cob's
 * types are derived from it, and the OpenAPI document and the tests read it.
 */
import { codeNameSchema, isoDate, str } from './shared.js';
import { COB_CODES } from './vocabulary.js';

const cobServiceTypes = { type: 'array', items: codeNameSchema } as const;

export const requestedPlanBenefitSchema = {
  title: 'RequestedPlanBenefit',
  type: 'object',
  additionalProperties: false,
  required: ['serviceTypeCodes', 'benefitDate'],
  properties: {
    payerName: str(),
    serviceTypeCodes: cobServiceTypes,
    benefitDate: {
      type: 'object',
      additionalProperties: false,
      properties: { planStartDate: isoDate('Plan start, YYYY-MM-DD.') },
    },
  },
} as const;

export const additionalPlanBenefitSchema = {
  title: 'AdditionalPlanBenefit',
  type: 'object',
  additionalProperties: false,
  required: ['serviceTypeCodes', 'benefitDate', 'subscriber'],
  properties: {
    payerName: str(),
    payerPrimacy: { type: 'string', enum: ['PrimaryPayer', 'SecondaryPayer', 'TertiaryPayer', 'Undetermined'] },
    serviceTypeCodes: cobServiceTypes,
    benefitDate: {
      type: 'object',
      additionalProperties: false,
      properties: {
        overlapBeginDate: isoDate('Start of the overlap, YYYY-MM-DD.'),
        overlapEndDate: isoDate('End of the overlap, YYYY-MM-DD.'),
        planStartDate: isoDate('Other plan start, YYYY-MM-DD.'),
        planEndDate: isoDate('Other plan end, YYYY-MM-DD.'),
        coordinationOfBenefits: isoDate('COB date, YYYY-MM-DD.'),
      },
    },
    subscriber: {
      type: 'object',
      additionalProperties: false,
      properties: { firstName: str(), lastName: str(), dateOfBirth: isoDate('YYYY-MM-DD.'), memberId: str() },
    },
  },
} as const;

export const cobResponseSchema = {
  title: 'CobResponse',
  type: 'object',
  additionalProperties: false,
  required: ['cobCode', 'requestedPlanBenefits', 'additionalPlanBenefitInfo'],
  properties: {
    cobCode: {
      type: 'string',
      enum: COB_CODES,
      description:
        'MemberFoundNoCOB: no other coverage. CoverageOverlapNoBenefitOverlap: several coverages, no overlap in benefits. CoverageOverlapExistsNotSubjectToCob: overlap not subject to COB. CobInstanceExistsPrimacyUndetermined: COB exists, primacy undetermined (call the payer). CobInstanceExistsPrimacyDetermined: COB exists with primacy determined.',
    },
    requestedPlanBenefits: {
      type: 'array',
      description: 'The plan that was asked about.',
      items: requestedPlanBenefitSchema,
    },
    additionalPlanBenefitInfo: {
      type: 'array',
      description: 'Other plans found for the member; empty when there is none.',
      items: additionalPlanBenefitSchema,
    },
  },
} as const;

/** The `cob` of an eligibility answer whose COB part failed: the eligibility answer itself still stands. */
export const cobFailureSchema = {
  title: 'CobFailure',
  type: 'object',
  additionalProperties: false,
  required: ['message', 'code'],
  description: 'The COB part failed; the eligibility answer itself still stands.',
  properties: { message: str(), code: str('An error code from the error table, e.g. PAYER_UNAVAILABLE.') },
} as const;
