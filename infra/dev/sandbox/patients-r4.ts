/** The sandbox's revision-4 test patients (infra/dev/sandbox/patients.ts lists them with the rest). */
import { fig, NA, NONE, PPO, HMO, type SandboxPatient } from './patient-rows.js';

/**
 * Patients showing revision-4 rules (docs/eligibility.md#revision-4-figures-a-biller-would-quote and
 * docs/eligibility.md#estimate-revision-2), one rule each.
 */
export const R4_PATIENTS: SandboxPatient[] = [
  {
    firstName: 'Ivy',
    lastName: 'Morgan',
    dob: '03-14-1988',
    memberId: 'PPO160016',
    ...PPO,
    scenario:
      'Office visits (98) with a $0 copay beside a 20% coinsurance, deductible met: an estimate line for 99213 (crosswalk → 98) charges the coinsurance, not $0 (estimate r2 rule 2)',
    planBegin: '20250101',
    benefits: [
      { info: '1', services: ['30', '98'], insuranceType: 'PR', planDescription: 'BRONZE PPO 500' },
      { info: 'B', level: 'IND', services: ['98'], insuranceType: 'PR', timePeriod: '27', amount: '0', network: 'Y' },
      { info: 'A', level: 'IND', services: ['98'], insuranceType: 'PR', percent: '.2', network: 'Y' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '500', network: 'Y' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '29', amount: '0', network: 'Y' },
      { info: 'G', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '3000', network: 'Y' },
      { info: 'G', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '29', amount: '2500', network: 'Y' },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: { individual: fig('$0.00', '$500.00', '$0.00', '20%', '$3,000.00', '$2,500.00'), family: NONE },
      outNetwork: { individual: NONE, family: NONE },
      notices: [],
      asks: ['30', '98'],
      services: { '98': { status: 'Active' } },
    },
  },
  {
    firstName: 'Leo',
    lastName: 'Foster',
    dob: '10-22-1986',
    memberId: 'HSA170017',
    ...PPO,
    scenario:
      'HSA family plan with family-only accumulators (IND 0 W placeholders) and family remainings: FAMILY_LEVEL_ONLY, and an estimate takes the family deductible and out-of-pocket remaining (estimate r2 rule 6)',
    planBegin: '20250101',
    benefits: [
      { info: '1', services: ['30'], insuranceType: 'PR', planDescription: 'HSA FAMILY 6000' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '0', network: 'W' },
      { info: 'C', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '6000', network: 'Y' },
      { info: 'C', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '29', amount: '4000', network: 'Y' },
      { info: 'A', level: 'FAM', services: ['30'], insuranceType: 'PR', percent: '.2', network: 'Y' },
      { info: 'G', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '0', network: 'W' },
      { info: 'G', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '12000', network: 'Y' },
      { info: 'G', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '29', amount: '4500', network: 'Y' },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: { individual: fig(NA, NA, NA, '20%', NA), family: fig(NA, '$6,000.00', '$4,000.00', '20%', '$12,000.00', '$4,500.00') },
      outNetwork: { individual: NONE, family: NONE },
      notices: ['FAMILY_LEVEL_ONLY'],
    },
  },
  {
    firstName: 'Mia',
    lastName: 'Santos',
    dob: '01-05-1993',
    memberId: 'DEN180018',
    ...PPO,
    scenario:
      'A dental-only plan (the active rows list 35, none 30): dental ranks as 30 for the plan-wide figures, plan.scope "dental", PLAN_SCOPE notice (r4 dental and vision only plans)',
    planBegin: '20250101',
    benefits: [
      { info: '1', services: ['35', '23', '25'], insuranceType: 'PR', planDescription: 'DENTAL PPO' },
      { info: 'C', level: 'IND', services: ['35'], insuranceType: 'PR', timePeriod: '23', amount: '50', network: 'Y' },
      { info: 'A', level: 'IND', services: ['35'], insuranceType: 'PR', percent: '.2', network: 'Y' },
      { info: 'F', level: 'IND', services: ['35'], insuranceType: 'PR', timePeriod: '23', amount: '1500', network: 'Y' },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: { individual: fig(NA, '$50.00', NA, '20%', NA), family: NONE },
      outNetwork: { individual: NONE, family: NONE },
      notices: ['PLAN_SCOPE'],
    },
  },
  {
    firstName: 'Noel',
    lastName: 'Bennett',
    dob: '07-19-1975',
    memberId: 'HMO190019',
    ...HMO,
    scenario: 'An HMO with a primary care provider on file: an EB01 L row whose 2120 NM1 names the PCP and NPI adds PCP_ON_FILE (r4 HMO rows)',
    planBegin: '20250101',
    benefits: [
      { info: '1', services: ['30'], insuranceType: 'HM', planDescription: 'SELECT HMO' },
      { info: 'L', services: ['30'], insuranceType: 'HM', benefitProvider: { entity: 'P3', lastName: 'WELBY', firstName: 'MARCUS', npi: '1245319599' } },
      { info: 'B', services: ['98'], insuranceType: 'HM', timePeriod: '27', amount: '20', network: 'Y' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'HM', timePeriod: '23', amount: '250', network: 'Y' },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: { individual: fig('$20.00', '$250.00', NA, NA, NA), family: fig('$20.00', NA, NA, NA, NA) },
      outNetwork: { individual: NONE, family: NONE },
      notices: ['PCP_ON_FILE'],
    },
  },
  {
    firstName: 'Arthur',
    lastName: 'Cole',
    dob: '12-03-1940',
    memberId: 'PPO210021',
    ...PPO,
    scenario:
      'The subscriber died on 2025-01-15 (2100C DTP*442), before the date of service: subscriber.dateOfDeath, PATIENT_DECEASED, coverageStatus Inactive (r4 date of death)',
    planBegin: '20250101',
    dateOfDeath: '20250115',
    benefits: [
      { info: '1', services: ['30'], insuranceType: 'PR', planDescription: 'GOLD PPO 1000' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '1000', network: 'Y' },
    ],
    expected: {
      coverageStatus: 'Inactive',
      inNetwork: { individual: fig(NA, '$1,000.00', NA, NA, NA), family: NONE },
      outNetwork: { individual: NONE, family: NONE },
      notices: ['PATIENT_DECEASED'],
    },
  },
];
