/** The sandbox's revision-3 test patients (infra/dev/sandbox/patients.ts lists them with the rest). */
import { fig, NA, NONE, PPO, MEDICARE, type SandboxPatient } from './patient-rows.js';

/** Patients showing the revision-3 rules (docs/eligibility.md#revision-3-per-service-answers-a-biller-trusts), one rule each unless named. */
export const R3_PATIENTS: SandboxPatient[] = [
  {
    firstName: 'Walter',
    lastName: 'Hayes',
    dob: '06-21-1949',
    memberId: '4EJ5KL6MN78',
    ...MEDICARE,
    scenario:
      'Old 4010-style Medicare rows with no service type (EB*1*IND**MA, EB*1*IND**MB): benefits[30] is Active, no SERVICE_NOT_RETURNED (r3 rule 1), the plan is Part B (rule 2), and benefits[30] shows the plan-level deductible and coinsurance with fromPlan (rule 6)',
    planBegin: '20150101',
    benefits: [
      { info: '1', level: 'IND', insuranceType: 'MA' },
      { info: '1', level: 'IND', insuranceType: 'MB' },
      { info: 'C', level: 'IND', insuranceType: 'MB', timePeriod: '23', amount: '257' },
      { info: 'A', level: 'IND', insuranceType: 'MB', percent: '.2' },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: { individual: fig(NA, '$257.00', NA, '20%', NA), family: NONE },
      outNetwork: { individual: fig(NA, '$257.00', NA, '20%', NA), family: NONE },
      plan: { insuranceType: { code: 'MB', name: 'Medicare Part B' }, planBegin: '2015-01-01' },
      notices: [],
      asks: ['30'],
      services: { '30': { status: 'Active', fromPlan: ['coinsurance', 'deductible'] } },
    },
  },
  {
    firstName: 'Grace',
    lastName: 'Turner',
    dob: '09-09-1981',
    memberId: 'PPO110011',
    ...PPO,
    scenario:
      "Copay and coinsurance rows sent with the coverage tier (FAM): they are the patient's own copay and coinsurance too (r3 rule 3); the deductible keeps its levels",
    planBegin: '20250101',
    benefits: [
      { info: '1', services: ['30'], insuranceType: 'PR', planDescription: 'SILVER PPO 2500' },
      { info: 'B', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '27', amount: '30', network: 'Y' },
      { info: 'A', level: 'FAM', services: ['30'], insuranceType: 'PR', percent: '.25', network: 'Y' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '2500', network: 'Y' },
      { info: 'C', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '5000', network: 'Y' },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: { individual: fig('$30.00', '$2,500.00', NA, '25%', NA), family: fig('$30.00', '$5,000.00', NA, '25%', NA) },
      outNetwork: { individual: NONE, family: NONE },
      notices: [],
    },
  },
  {
    firstName: 'Owen',
    lastName: 'Park',
    dob: '02-17-1984',
    memberId: 'HSA120012',
    ...PPO,
    scenario:
      'HSA family plan whose individual deductible and out-of-pocket rows say 0 for both networks (IND 0 W): placeholders, not $0 (r3 rule 4); FAMILY_LEVEL_ONLY notice',
    planBegin: '20250101',
    benefits: [
      { info: '1', services: ['30'], insuranceType: 'PR', planDescription: 'HSA FAMILY 7000' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '0', network: 'W' },
      { info: 'C', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '7000', network: 'Y' },
      { info: 'G', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '0', network: 'W' },
      { info: 'G', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '14000', network: 'Y' },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: { individual: NONE, family: fig(NA, '$7,000.00', NA, NA, '$14,000.00') },
      outNetwork: { individual: NONE, family: NONE },
      notices: ['FAMILY_LEVEL_ONLY'],
    },
  },
  {
    firstName: 'Rosa',
    lastName: 'Diaz',
    dob: '11-11-1979',
    memberId: 'PPO130013',
    ...PPO,
    scenario:
      "Chiropractic (33) excluded out of network only: not NotCovered (r3 rule 5), its out-of-network blocks N/A; in network it shows its own $40 copay and the plan's deductible and coinsurance, fromPlan (rule 6)",
    planBegin: '20250101',
    benefits: [
      { info: '1', services: ['30'], insuranceType: 'PR', planDescription: 'GOLD PPO 1000' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '1000', network: 'Y' },
      { info: 'A', level: 'IND', services: ['30'], insuranceType: 'PR', percent: '.2', network: 'Y' },
      { info: 'A', level: 'IND', services: ['30'], insuranceType: 'PR', percent: '.5', network: 'N' },
      { info: 'B', level: 'IND', services: ['33'], insuranceType: 'PR', timePeriod: '27', amount: '40', network: 'Y' },
      { info: 'I', services: ['33'], insuranceType: 'PR', network: 'N', messages: ['OUT-OF-NETWORK CHIROPRACTIC IS NOT COVERED'] },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: { individual: fig(NA, '$1,000.00', NA, '20%', NA), family: NONE },
      outNetwork: { individual: fig(NA, NA, NA, '50%', NA), family: NONE },
      notices: [],
      asks: ['30', '33'],
      services: {
        '33': {
          status: 'Unknown',
          inNetwork: { individual: fig('$40.00', '$1,000.00', NA, '20%', NA), family: NONE },
          outNetwork: { individual: NONE, family: NONE },
          fromPlan: ['coinsurance', 'deductible'],
        },
      },
    },
  },
  {
    firstName: 'Tom',
    lastName: 'Reed',
    dob: '04-30-1970',
    memberId: 'PPO140014',
    ...PPO,
    scenario:
      'Physical therapy limits: 20 visits a year on a row whose amount is the filler 99999 (the visits stay, r3 rule 7), and an HSD saying 12 visits remain',
    planBegin: '20250101',
    benefits: [
      { info: '1', services: ['30', 'PT'], insuranceType: 'PR', planDescription: 'GOLD PPO 1000' },
      {
        info: 'F',
        level: 'IND',
        services: ['PT'],
        insuranceType: 'PR',
        timePeriod: '23',
        amount: '99999',
        quantityQualifier: 'VS',
        quantity: '20',
        network: 'Y',
        deliveries: [{ quantityQualifier: 'VS', quantity: '12', timePeriod: '29', periodCount: '1' }],
      },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: { individual: NONE, family: NONE },
      outNetwork: { individual: NONE, family: NONE },
      notices: [],
      asks: ['30', 'PT'],
      services: {
        PT: {
          status: 'Active',
          limitations: [
            { quantity: 20, unit: 'Visits', period: 'Calendar Year', network: 'in', level: 'individual' },
            { quantity: 12, unit: 'Visits', period: 'Remaining', periodCount: 1, remaining: true },
          ],
        },
      },
    },
  },
  {
    firstName: 'Karen',
    lastName: 'Price',
    dob: '08-08-1966',
    memberId: 'PPO150015',
    ...PPO,
    scenario:
      'Two other payers: an employer plan that ended in 2019 (DTP*291) and a spouse plan since 2024 (DTP*292): both listed with activeOnDate, only the active one named in OTHER_PAYER (r3 rule 9)',
    planBegin: '20250101',
    benefits: [
      { info: '1', services: ['30'], insuranceType: 'PR', planDescription: 'GOLD PPO 1000' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '1000', network: 'Y' },
      {
        info: 'R',
        services: ['30'],
        insuranceType: 'C1',
        dates: [{ qualifier: '291', format: 'RD8', value: '20150101-20191231' }],
        otherPayer: { entity: 'PRP', name: 'OLD EMPLOYER PLAN', payerId: 'OLDEMP' },
      },
      {
        info: 'R',
        services: ['30'],
        insuranceType: 'C1',
        dates: [{ qualifier: '292', format: 'D8', value: '20240101' }],
        otherPayer: { entity: 'PRP', name: 'SPOUSE PLAN', payerId: 'SPOUSE1', memberId: 'SP123' },
      },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: { individual: fig(NA, '$1,000.00', NA, NA, NA), family: NONE },
      outNetwork: { individual: NONE, family: NONE },
      otherPayers: [
        {
          name: 'OLD EMPLOYER PLAN',
          payerId: 'OLDEMP',
          insuranceType: { code: 'C1', name: 'Commercial' },
          serviceTypes: ['30'],
          coverageBegin: '2015-01-01',
          coverageEnd: '2019-12-31',
          activeOnDate: false,
        },
        {
          name: 'SPOUSE PLAN',
          payerId: 'SPOUSE1',
          insuranceType: { code: 'C1', name: 'Commercial' },
          serviceTypes: ['30'],
          coverageBegin: '2024-01-01',
          memberId: 'SP123',
          activeOnDate: true,
        },
      ],
      notices: ['OTHER_PAYER'],
    },
  },
];
