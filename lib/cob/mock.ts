import { EXACT, type ExactError } from '../errors/index.js';
import { MOCK_PATIENTS, type MockPatient } from '../mock/index.js';
import type { CobResult } from './types.js';

/**
 * COB mock mode (docs/api.md#mock-mode): the eligibility mock sets, matched on the COB required fields
 * (plus date of birth and member id when given). Set 4 is the error scenario.
 */

const HEALTH_PLAN = { code: '30', name: 'Health Benefit Plan Coverage' };

const MOCK_COB: Record<number, CobResult> = {
  1: {
    cobCode: 'MemberFoundNoCOB',
    requestedPlanBenefits: [{ payerName: 'Mock Payer One', serviceTypeCodes: [HEALTH_PLAN], benefitDate: { planStartDate: '2025-01-01' } }],
    additionalPlanBenefitInfo: [],
  },
  2: {
    cobCode: 'CobInstanceExistsPrimacyDetermined',
    requestedPlanBenefits: [{ payerName: 'Mock Payer Two', serviceTypeCodes: [HEALTH_PLAN], benefitDate: { planStartDate: '2025-01-01' } }],
    additionalPlanBenefitInfo: [
      {
        payerName: 'Mock Secondary Health',
        payerPrimacy: 'SecondaryPayer',
        serviceTypeCodes: [HEALTH_PLAN],
        benefitDate: {
          overlapBeginDate: '2025-02-01',
          overlapEndDate: '2025-12-31',
          planStartDate: '2024-07-01',
          planEndDate: '2025-12-31',
          coordinationOfBenefits: '2025-02-01',
        },
        subscriber: { firstName: 'Jane', lastName: 'Smith', dateOfBirth: '1985-02-02', memberId: 'SEC987654321' },
      },
    ],
  },
  3: {
    cobCode: 'CobInstanceExistsPrimacyUndetermined',
    requestedPlanBenefits: [{ payerName: 'Mock Payer Three', serviceTypeCodes: [HEALTH_PLAN], benefitDate: { planStartDate: '2025-01-01' } }],
    additionalPlanBenefitInfo: [
      {
        payerName: 'Mock Other Health Plan',
        payerPrimacy: 'Undetermined',
        serviceTypeCodes: [HEALTH_PLAN],
        benefitDate: { overlapBeginDate: '2025-03-01', planStartDate: '2025-03-01' },
        subscriber: { firstName: 'Robert', lastName: 'Johnson', dateOfBirth: '1972-03-15', memberId: 'OTH3003003' },
      },
    ],
  },
};

/** The fixed COB answer of a mock scenario (undefined for the error scenario). Fresh copy each call. */
export function mockCobResult(scenario: number): CobResult | undefined {
  const result = MOCK_COB[scenario];
  return result ? structuredClone(result) : undefined;
}

type CobMockQuery = Pick<MockPatient, 'patientFirstName' | 'patientLastName' | 'dateOfCoverage' | 'payerId' | 'providerId'> &
  Partial<Pick<MockPatient, 'patientDOB' | 'patientMemberId'>>;

const REQUIRED: (keyof CobMockQuery)[] = ['patientFirstName', 'patientLastName', 'dateOfCoverage', 'payerId', 'providerId'];
const OPTIONAL: (keyof CobMockQuery)[] = ['patientDOB', 'patientMemberId'];

export function mockCob(query: CobMockQuery): { ok: true; body: CobResult } | { ok: false; error: ExactError } {
  const index = MOCK_PATIENTS.findIndex(
    (patient) => REQUIRED.every((key) => patient[key] === query[key]) && OPTIONAL.every((key) => query[key] === undefined || patient[key] === query[key]),
  );
  if (index < 0) return { ok: false, error: EXACT.MOCK_NOT_FOUND };
  const body = mockCobResult(index + 1);
  return body ? { ok: true, body } : { ok: false, error: EXACT.MOCK_COB_ERROR };
}
