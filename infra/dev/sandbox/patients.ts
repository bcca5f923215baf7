/**
 * The sandbox clearinghouse's test patients: who they are, what the payer answers for them, and
 * what the service must show for each (docs/eligibility.md explains the rules they exercise). This
 * table is the README's list; the revision-2, revision-3 and revision-4 patients are in ./patients-r2.ts,
 * ./patients-r3.ts and ./patients-r4.ts, and what a patient is in ./patient-rows.ts.
 *
 * A patient is matched on payer id, member id, last name, first name and date of birth (names and
 * ids case-insensitively, as payers do). Anyone else gets AAA 75 (subscriber not found).
 */
import { usDateToD8 } from '../../../lib/validation/index.js';
import { fig, NA, NONE, PPO, HMO, MEDICARE, PPO_BENEFITS, PPO_EXPECTED, type SandboxFault, type SandboxPatient } from './patient-rows.js';
import { R2_PATIENTS } from './patients-r2.js';
import { R3_PATIENTS } from './patients-r3.js';
import { R4_PATIENTS } from './patients-r4.js';

export type { EbRow, SandboxFault, SandboxPatient } from './patient-rows.js';

export const SANDBOX_PATIENTS: readonly SandboxPatient[] = [
  {
    firstName: 'Maria',
    lastName: 'Garcia',
    dob: '04-12-1985',
    memberId: 'PPO100001',
    ...PPO,
    scenario: 'Active PPO: every in- and out-of-network figure, remaining deductible via EB06 29 (individual) and 24 (family)',
    planBegin: '20250101',
    benefits: PPO_BENEFITS,
    expected: PPO_EXPECTED,
  },
  {
    firstName: 'David',
    lastName: 'Chen',
    dob: '09-30-1978',
    memberId: 'HMO200002',
    ...HMO,
    scenario: 'Active HMO: in-network only (out-of-network not covered); copay and coinsurance rows without a level serve both',
    planBegin: '20250101',
    benefits: [
      { info: '1', services: ['30'], insuranceType: 'HM', planDescription: 'SELECT HMO' },
      { info: 'B', services: ['98'], insuranceType: 'HM', timePeriod: '27', amount: '30', network: 'Y' },
      { info: 'B', services: ['UC'], insuranceType: 'HM', timePeriod: '27', amount: '50', network: 'Y' },
      { info: 'A', services: ['30'], insuranceType: 'HM', percent: '0', network: 'Y' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'HM', timePeriod: '23', amount: '500', network: 'Y' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'HM', timePeriod: '29', amount: '320', network: 'Y' },
      { info: 'C', level: 'FAM', services: ['30'], insuranceType: 'HM', timePeriod: '23', amount: '1000', network: 'Y' },
      { info: 'G', level: 'IND', services: ['30'], insuranceType: 'HM', timePeriod: '23', amount: '4000', network: 'Y' },
      { info: 'G', level: 'FAM', services: ['30'], insuranceType: 'HM', timePeriod: '23', amount: '8000', network: 'Y' },
      { info: 'I', services: ['30'], insuranceType: 'HM', network: 'N', messages: ['OUT OF NETWORK SERVICES NOT COVERED EXCEPT EMERGENCIES'] },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: {
        individual: fig('$30.00', '$500.00', '$320.00', '0%', '$4,000.00'),
        family: fig('$30.00', '$1,000.00', NA, '0%', '$8,000.00'),
      },
      outNetwork: { individual: NONE, family: NONE },
    },
  },
  {
    firstName: 'Lily',
    lastName: 'Patel',
    dob: '06-15-2012',
    memberId: 'FAM300003',
    ...PPO,
    scenario: "Dependent on a family plan: benefits in 2000D/2110D under subscriber Raj Patel (the subscriber's 2110C rows are not hers)",
    subscriber: { firstName: 'Raj', lastName: 'Patel', dob: '03-22-1980' },
    planBegin: '20250101',
    subscriberBenefits: [
      { info: '1', services: ['30'], insuranceType: 'PR', planDescription: 'FAMILY PPO' },
      { info: 'B', level: 'IND', services: ['98'], insuranceType: 'PR', timePeriod: '27', amount: '99', network: 'Y' },
    ],
    benefits: [
      { info: '1', level: 'FAM', services: ['30'], insuranceType: 'PR', planDescription: 'FAMILY PPO' },
      { info: 'B', level: 'IND', services: ['98'], insuranceType: 'PR', timePeriod: '27', amount: '20', network: 'Y' },
      { info: 'B', level: 'FAM', services: ['98'], insuranceType: 'PR', timePeriod: '27', amount: '40', network: 'Y' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '750', network: 'Y' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '29', amount: '600', network: 'Y' },
      { info: 'C', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '1500', network: 'Y' },
      { info: 'C', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '29', amount: '900', network: 'Y' },
      { info: 'A', services: ['30'], insuranceType: 'PR', percent: '.15', network: 'Y' },
      { info: 'G', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '3000', network: 'Y' },
      { info: 'G', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '6000', network: 'Y' },
      // Met (2500) exceeds the total (2000): remaining floors at $0.00.
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '2000', network: 'N' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '24', amount: '2500', network: 'N' },
      { info: 'A', level: 'IND', services: ['30'], insuranceType: 'PR', percent: '.35', network: 'N' },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: {
        individual: fig('$20.00', '$750.00', '$600.00', '15%', '$3,000.00'),
        family: fig('$40.00', '$1,500.00', '$900.00', '15%', '$6,000.00'),
      },
      outNetwork: {
        individual: fig(NA, '$2,000.00', '$0.00', '35%', NA),
        family: NONE,
      },
    },
  },
  {
    firstName: 'Harold',
    lastName: 'Brooks',
    dob: '11-02-1950',
    memberId: '1EG4TE5MK73',
    ...MEDICARE,
    scenario:
      'Medicare Part A and B: an EB04 MB row drops every MA row (Part B deductible and 20% coinsurance win); no network indicator, so in = out; Original Medicare, so every family figure is N/A',
    planBegin: '20150901',
    benefits: [
      { info: '1', services: ['30', '42', '45', '48', '49', '69', '76', '83', 'A5', 'A7', 'AG', 'BT', 'BU', 'BV'], insuranceType: 'MA' },
      {
        info: '1',
        services: [
          '30',
          '2',
          '23',
          '24',
          '25',
          '26',
          '27',
          '28',
          '33',
          '36',
          '37',
          '38',
          '39',
          '40',
          '42',
          '50',
          '51',
          '52',
          '53',
          '67',
          '69',
          '73',
          '76',
          '83',
          '86',
          '98',
          'A4',
          'A6',
          'A7',
          'A8',
          'AD',
          'AE',
          'AJ',
          'BF',
          'BG',
          'BT',
          'BU',
          'BV',
        ],
        insuranceType: 'MB',
      },
      // Part A rows come first and would win on document order if they were not dropped.
      { info: 'C', services: ['30'], insuranceType: 'MA', timePeriod: '23', amount: '1676' },
      { info: 'C', services: ['30'], insuranceType: 'MA', timePeriod: '29', amount: '1676' },
      { info: 'A', services: ['30'], insuranceType: 'MA', percent: '0' },
      { info: 'C', services: ['30'], insuranceType: 'MB', timePeriod: '23', amount: '257' },
      { info: 'C', services: ['30'], insuranceType: 'MB', timePeriod: '29', amount: '57.5' },
      { info: 'A', services: ['30'], insuranceType: 'MB', percent: '.2' },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: { individual: fig(NA, '$257.00', '$57.50', '20%', NA), family: NONE },
      outNetwork: { individual: fig(NA, '$257.00', '$57.50', '20%', NA), family: NONE },
    },
  },
  ...R2_PATIENTS,
  ...R3_PATIENTS,
  ...R4_PATIENTS,
  {
    firstName: 'Susan',
    lastName: 'Miller',
    dob: '01-20-1969',
    memberId: 'INA400004',
    ...PPO,
    scenario: 'Inactive coverage (EB01 6): coverageStatus Inactive, every figure N/A',
    planBegin: '20230101',
    planEnd: '20241231',
    benefits: [{ info: '6', services: ['30'], insuranceType: 'PR', planDescription: 'GOLD PPO 1500' }],
    expected: { coverageStatus: 'Inactive', inNetwork: { individual: NONE, family: NONE }, outNetwork: { individual: NONE, family: NONE } },
  },
  {
    firstName: 'Kevin',
    lastName: 'Wright',
    dob: '07-07-1990',
    memberId: 'ERR720072',
    ...PPO,
    scenario: 'AAA 72 (invalid/missing subscriber id) in 2100C → 422 PAYER_REJECTED',
    aaa: { code: '72', followUp: 'C', loop: '2100C' },
  },
  {
    firstName: 'Nina',
    lastName: 'Lopez',
    dob: '12-01-1995',
    memberId: 'ERR750075',
    ...PPO,
    scenario: 'AAA 75 (subscriber not found) in 2100C → 422 PAYER_REJECTED (any unknown patient answers the same)',
    aaa: { code: '75', followUp: 'C', loop: '2100C' },
  },
  {
    firstName: 'Paul',
    lastName: 'Young',
    dob: '05-05-1965',
    memberId: 'ERR420042',
    ...PPO,
    scenario: 'AAA 42 (unable to respond now) in 2100A, every time → retried once, then 503 PAYER_UNAVAILABLE',
    aaa: { code: '42', followUp: 'R', loop: '2100A' },
  },
  faultPatient('Quinn', 'Throttle', 'FLT429', 'http-429', 'HTTP 429 every time → retried once, then 503 PAYER_UNAVAILABLE'),
  faultPatient('Uma', 'Outage', 'FLT500', 'http-500', 'HTTP 500 every time → retried once, then 503 PAYER_UNAVAILABLE'),
  faultPatient('Flynn', 'Flaky', 'FLTFLAKY', 'flaky-500', 'HTTP 500 on odd calls, the active PPO answer on even calls → the retry succeeds'),
  faultPatient('Sam', 'Slow', 'FLTSLOW', 'slow', "Answers only after the sandbox's slowMs (default 35 s) → 504 UPSTREAM_TIMEOUT"),
  faultPatient('Nora', 'Nack', 'FLT999', 'reply-999', 'HTTP 400 whose x12 is a 999 rejecting the 270 → 502 UPSTREAM_ERROR'),
  faultPatient('Tess', 'Truncated', 'FLTTRUNC', 'truncated-271', 'A 271 cut off before the subscriber loop → 502 UPSTREAM_ERROR'),
  faultPatient('Jay', 'Garbled', 'FLTJSON', 'malformed-json', 'HTTP 200 whose body is not JSON → 502 UPSTREAM_ERROR'),
];

function faultPatient(firstName: string, lastName: string, memberId: string, fault: SandboxFault, scenario: string): SandboxPatient {
  const patient: SandboxPatient = { firstName, lastName, dob: '01-01-1980', memberId, ...PPO, scenario, fault, planBegin: '20250101' };
  // The faults that eventually answer answer like the active PPO.
  if (fault === 'flaky-500' || fault === 'slow') {
    patient.benefits = PPO_BENEFITS;
    patient.expected = PPO_EXPECTED;
  }
  return patient;
}

const same = (a: string, b: string): boolean => a.trim().toUpperCase() === b.trim().toUpperCase();

/** The test patient a request names, by payer, member id, name and date of birth (CCYYMMDD). */
export function findSandboxPatient(query: {
  payerId: string;
  memberId: string;
  lastName: string;
  firstName: string;
  dateOfBirth: string;
}): SandboxPatient | undefined {
  return SANDBOX_PATIENTS.find(
    (p) =>
      same(p.payerId, query.payerId) &&
      same(p.memberId, query.memberId) &&
      same(p.lastName, query.lastName) &&
      same(p.firstName, query.firstName) &&
      usDateToD8(p.dob) === query.dateOfBirth,
  );
}
