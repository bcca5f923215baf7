/**
 * The COB sandbox's own test patients (infra/sandbox/cob-answers.ts answers for them and for every
 * eligibility sandbox patient), and what a COB sandbox patient is: who, what the service must answer,
 * and the scenario the sandbox answers with.
 */
import type { CobCode } from '../../../lib/cob/index.js';
import { SANDBOX_PAYER_1 } from './patient-rows.js';

type EntityIdentifier = 'Primary Payer' | 'Secondary Payer' | 'Tertiary Payer' | 'Payer';

export interface OtherPlan {
  payerName: string;
  /** Stedi's proprietary PI value: present in the answer, never shown by the service. */
  payerPi: string;
  entityIdentifier: EntityIdentifier;
  insured: { firstName: string; lastName: string; memberId: string; dateOfBirth: string };
  serviceTypes: ReadonlyArray<readonly [string, string]>;
  dates: Record<string, string>;
}

export interface Scenario {
  classification: string;
  flags: { instanceExists: boolean; primacyDetermined: boolean; coverageOverlap: boolean; benefitOverlap: boolean };
  planBegin?: string;
  activeServiceTypes: ReadonlyArray<readonly [string, string]>;
  otherPlans: OtherPlan[];
}

export interface CobSandboxPatient {
  firstName: string;
  lastName: string;
  /** MM-DD-YYYY, as a caller sends it. */
  dateOfBirth: string;
  memberId: string;
  payerId: string;
  dependent?: { firstName: string; lastName: string; dateOfBirth: string };
  /** What the service answers: a COB code, or the error code an AAA maps to. */
  expected: { cobCode: CobCode } | { error: 'PAYER_REJECTED' | 'PAYER_UNAVAILABLE'; aaa: string };
  note: string;
  /** How the sandbox answers; not needed to document the patient. */
  answer: { status: 200; scenario: Scenario } | { status: 200 | 400; aaa: string };
}

export const MEDICAL = [['30', 'Health Benefit Plan Coverage']] as const;
export const FLAGS = {
  none: { instanceExists: false, primacyDetermined: false, coverageOverlap: false, benefitOverlap: false },
  overlapOnly: { instanceExists: false, primacyDetermined: false, coverageOverlap: true, benefitOverlap: false },
  notSubject: { instanceExists: false, primacyDetermined: false, coverageOverlap: true, benefitOverlap: true },
  undetermined: { instanceExists: true, primacyDetermined: false, coverageOverlap: true, benefitOverlap: true },
  determined: { instanceExists: true, primacyDetermined: true, coverageOverlap: true, benefitOverlap: true },
};

export const COB_ONLY_PATIENTS: readonly CobSandboxPatient[] = [
  {
    firstName: 'Maria',
    lastName: 'Garcia',
    dateOfBirth: '04-12-1979',
    memberId: 'SBX100001',
    payerId: SANDBOX_PAYER_1.payerId,
    expected: { cobCode: 'MemberFoundNoCOB' },
    note: 'Covered by the requested plan only.',
    answer: {
      status: 200,
      scenario: {
        classification: 'MemberFoundNoCob',
        flags: FLAGS.none,
        planBegin: '2025-01-01',
        activeServiceTypes: [...MEDICAL, ['88', 'Pharmacy']],
        otherPlans: [],
      },
    },
  },
  {
    firstName: 'Wei',
    lastName: 'Chen',
    dateOfBirth: '09-30-1988',
    memberId: 'SBX200002',
    payerId: SANDBOX_PAYER_1.payerId,
    expected: { cobCode: 'CoverageOverlapNoBenefitOverlap' },
    note: 'Also has a dental-only plan: coverage overlaps, benefits do not.',
    answer: {
      status: 200,
      scenario: {
        classification: 'CoverageOverlapNoBenefitOverlap',
        flags: FLAGS.overlapOnly,
        planBegin: '2025-01-01',
        activeServiceTypes: MEDICAL,
        otherPlans: [
          {
            payerName: 'DELTA DENTAL',
            payerPi: '4410',
            entityIdentifier: 'Payer',
            insured: { firstName: 'WEI', lastName: 'CHEN', memberId: 'DD2000021', dateOfBirth: '1988-09-30' },
            serviceTypes: [['35', 'Dental Care']],
            dates: { benefitBegin: '2024-07-01' },
          },
        ],
      },
    },
  },
  {
    firstName: 'Aisha',
    lastName: 'Khan',
    dateOfBirth: '02-14-1992',
    memberId: 'SBX300003',
    payerId: SANDBOX_PAYER_1.payerId,
    expected: { cobCode: 'CoverageOverlapExistsNotSubjectToCob' },
    note: 'A second medical plan overlaps, but it is not subject to COB.',
    answer: {
      status: 200,
      scenario: {
        classification: 'CoverageOverlapExistsNotSubjectToCob',
        flags: FLAGS.notSubject,
        planBegin: '2025-01-01',
        activeServiceTypes: MEDICAL,
        otherPlans: [
          {
            payerName: 'AETNA',
            payerPi: '1021',
            entityIdentifier: 'Payer',
            insured: { firstName: 'AISHA', lastName: 'KHAN', memberId: 'W300003031', dateOfBirth: '1992-02-14' },
            serviceTypes: MEDICAL,
            dates: { periodStart: '2025-03-01', periodEnd: '2025-12-31', benefitBegin: '2025-03-01', benefitEnd: '2025-12-31' },
          },
        ],
      },
    },
  },
  {
    firstName: 'Liam',
    lastName: "O'Brien",
    dateOfBirth: '11-05-1970',
    memberId: 'SBX400004',
    payerId: SANDBOX_PAYER_1.payerId,
    expected: { cobCode: 'CobInstanceExistsPrimacyUndetermined' },
    note: 'COB applies; which plan pays first could not be determined (call the payers).',
    answer: {
      status: 200,
      scenario: {
        classification: 'CobInstanceExistsPrimacyUndetermined',
        flags: FLAGS.undetermined,
        planBegin: '2024-01-01',
        activeServiceTypes: [...MEDICAL, ['98', 'Professional (Physician) Visit - Office']],
        otherPlans: [
          {
            payerName: 'CIGNA',
            payerPi: '1006',
            entityIdentifier: 'Payer',
            insured: { firstName: 'LIAM', lastName: "O'BRIEN", memberId: 'U40000404', dateOfBirth: '1970-11-05' },
            serviceTypes: [...MEDICAL, ['98', 'Professional (Physician) Visit - Office']],
            dates: { coordinationOfBenefits: '2025-01-01-2025-12-31', periodStart: '2025-01-01', periodEnd: '2025-12-31', planBegin: '2025-01-01' },
          },
        ],
      },
    },
  },
  {
    firstName: 'Sofia',
    lastName: 'Rossi',
    dateOfBirth: '07-21-1983',
    memberId: 'SBX500005',
    payerId: SANDBOX_PAYER_1.payerId,
    expected: { cobCode: 'CobInstanceExistsPrimacyDetermined' },
    note: 'COB applies; the other plan is secondary.',
    answer: {
      status: 200,
      scenario: {
        classification: 'CobInstanceExistsPrimacyDetermined',
        flags: FLAGS.determined,
        planBegin: '2023-06-01',
        activeServiceTypes: MEDICAL,
        otherPlans: [
          {
            payerName: 'UNITEDHEALTHCARE',
            payerPi: '2207',
            entityIdentifier: 'Secondary Payer',
            insured: { firstName: 'MARCO', lastName: 'ROSSI', memberId: '950500505', dateOfBirth: '1981-03-02' },
            serviceTypes: MEDICAL,
            dates: { coordinationOfBenefits: '2025-02-01', periodStart: '2025-02-01', planBegin: '2025-02-01' },
          },
        ],
      },
    },
  },
  {
    firstName: 'Noah',
    lastName: 'Williams',
    dateOfBirth: '03-03-1965',
    memberId: 'SBX600006',
    payerId: SANDBOX_PAYER_1.payerId,
    expected: { cobCode: 'CobInstanceExistsPrimacyDetermined' },
    note: 'Two other plans: one primary, one tertiary (dates partly in YYYYMMDD form).',
    answer: {
      status: 200,
      scenario: {
        classification: 'CobInstanceExistsPrimacyDetermined',
        flags: FLAGS.determined,
        activeServiceTypes: [...MEDICAL, ['88', 'Pharmacy'], ['AL', 'Vision (Optometry)']],
        otherPlans: [
          {
            payerName: 'AETNA',
            payerPi: '1021',
            entityIdentifier: 'Primary Payer',
            insured: { firstName: 'NOAH', lastName: 'WILLIAMS', memberId: 'W600006061', dateOfBirth: '1965-03-03' },
            serviceTypes: [...MEDICAL, ['88', 'Pharmacy']],
            dates: { coordinationOfBenefits: '20250101', periodStart: '20250101', periodEnd: '20251231', planBegin: '20220101', benefitEnd: '20251231' },
          },
          {
            payerName: 'BLUE CROSS BLUE SHIELD OF TEXAS',
            payerPi: '3310',
            entityIdentifier: 'Tertiary Payer',
            insured: { firstName: 'GRACE', lastName: 'WILLIAMS', memberId: 'XOJ600006062', dateOfBirth: '1967-08-19' },
            serviceTypes: MEDICAL,
            dates: { coordinationOfBenefits: '2025-04-01', periodStart: '2025-04-01', benefitBegin: '2025-04-01' },
          },
        ],
      },
    },
  },
  {
    firstName: 'James',
    lastName: 'Brown',
    dateOfBirth: '12-01-1980',
    memberId: 'SBX700007',
    payerId: SANDBOX_PAYER_1.payerId,
    dependent: { firstName: 'Emma', lastName: 'Brown', dateOfBirth: '06-30-2015' },
    expected: { cobCode: 'CobInstanceExistsPrimacyDetermined' },
    note: "Check for the dependent Emma: her mother's plan is primary (birthday rule).",
    answer: {
      status: 200,
      scenario: {
        classification: 'CobInstanceExistsPrimacyDetermined',
        flags: FLAGS.determined,
        planBegin: '2024-01-01',
        activeServiceTypes: MEDICAL,
        otherPlans: [
          {
            payerName: 'CIGNA',
            payerPi: '1006',
            entityIdentifier: 'Primary Payer',
            insured: { firstName: 'OLIVIA', lastName: 'BROWN', memberId: 'U70000707', dateOfBirth: '1982-04-09' },
            serviceTypes: MEDICAL,
            dates: { coordinationOfBenefits: '2024-09-01', periodStart: '2024-09-01', planBegin: '2024-09-01' },
          },
        ],
      },
    },
  },
  {
    firstName: 'Peter',
    lastName: 'Novak',
    dateOfBirth: '10-10-1975',
    memberId: 'SBX800008',
    payerId: SANDBOX_PAYER_1.payerId,
    expected: { error: 'PAYER_REJECTED', aaa: '75' },
    note: 'The payer does not find the subscriber (AAA 75, HTTP 400) - the same answer as any unknown patient.',
    answer: { status: 400, aaa: '75' },
  },
  {
    firstName: 'Hana',
    lastName: 'Sato',
    dateOfBirth: '05-05-1995',
    memberId: 'SBX900009',
    payerId: SANDBOX_PAYER_1.payerId,
    expected: { error: 'PAYER_UNAVAILABLE', aaa: '42' },
    note: 'The payer cannot respond now (AAA 42, HTTP 200): retried once, then 503 with Retry-After.',
    answer: { status: 200, aaa: '42' },
  },
];
