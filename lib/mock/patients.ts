/** The four mock patient sets (docs/api.md#mock-mode), shared by mock eligibility and mock COB. */
import type { EligibilityRequest } from '../validation/index.js';

/** The seven fields a mock request must match exactly. */
export type MockPatient = Pick<
  EligibilityRequest,
  'patientFirstName' | 'patientLastName' | 'patientDOB' | 'patientMemberId' | 'dateOfCoverage' | 'payerId' | 'providerId'
>;

export const MOCK_PATIENTS: readonly MockPatient[] = [
  {
    patientFirstName: 'John',
    patientLastName: 'Doe',
    patientDOB: '01-01-1980',
    patientMemberId: '123456789',
    dateOfCoverage: '01-01-2025',
    payerId: 'PAYER001',
    providerId: 'PROVIDER001',
  },
  {
    patientFirstName: 'Jane',
    patientLastName: 'Smith',
    patientDOB: '02-02-1985',
    patientMemberId: '987654321',
    dateOfCoverage: '02-02-2025',
    payerId: 'PAYER002',
    providerId: 'PROVIDER002',
  },
  {
    patientFirstName: 'Robert',
    patientLastName: 'Johnson',
    patientDOB: '03-15-1972',
    patientMemberId: 'MBR3003003',
    dateOfCoverage: '03-01-2025',
    payerId: 'PAYER003',
    providerId: 'PROVIDER003',
  },
  {
    patientFirstName: 'Emily',
    patientLastName: 'Davis',
    patientDOB: '04-04-1990',
    patientMemberId: 'MBR4004004',
    dateOfCoverage: '04-01-2025',
    payerId: 'PAYER004',
    providerId: 'PROVIDER004',
  },
];

const MOCK_KEYS = Object.keys(MOCK_PATIENTS[0]) as (keyof MockPatient)[];

/** The 1-based scenario number whose seven fields the request equals, or undefined. */
export function matchMockScenario(request: MockPatient): number | undefined {
  const index = MOCK_PATIENTS.findIndex((patient) => MOCK_KEYS.every((key) => patient[key] === request[key]));
  return index < 0 ? undefined : index + 1;
}
