/**
 * The sandbox clearinghouse's test patients: who they are, what the payer answers for them, and
 * what the service must show for each (docs/eligibility.md explains the rules they exercise). This
 * table is the README's list.
 *
 * A patient is matched on payer id, member id, last name, first name and date of birth (names and
 * ids case-insensitively, as payers do). Anyone else gets AAA 75 (subscriber not found).
 */
import type { BenefitBlock, BenefitFigures, CoverageStatus, NoticeCode, OtherPayer, Plan, ServiceBenefit } from '../../lib/eligibility/types.js';
import { usDateToD8 } from '../../lib/validation/formats.js';

/** One EB segment (2110C/D), by element: EB01 info, EB02 level, EB03 service types (repeated with ^), … */
export interface EbRow {
  info: string;
  level?: string;
  services?: string[];
  insuranceType?: string;
  planDescription?: string;
  timePeriod?: string;
  amount?: string;
  percent?: string;
  /** EB09 quantity qualifier (VS visits…) and EB10 quantity. */
  quantityQualifier?: string;
  quantity?: string;
  /** EB11: prior authorization required. */
  authorization?: 'Y' | 'N' | 'U';
  network?: 'Y' | 'N' | 'W' | 'U';
  /** EB13 composite, e.g. ['HC', '99285']. */
  procedure?: string[];
  /** HSD segments of the 2110 loop (visit and day limits): HSD01, HSD02, HSD05, HSD06. */
  deliveries?: { quantityQualifier: string; quantity: string; timePeriod: string; periodCount?: string }[];
  /** DTP segments of the 2110 loop. */
  dates?: { qualifier: string; format: 'D8' | 'RD8'; value: string }[];
  /** MSG segments following the EB. */
  messages?: string[];
  /** Another payer (EB01 R): REF*IG with its member id, and its 2120 NM1. */
  otherPayer?: { entity: 'PR' | 'PRP' | 'SEP' | 'TTP'; name: string; payerId: string; memberId?: string };
}

export type SandboxFault =
  | 'http-429' // HTTP 429 every time
  | 'http-500' // HTTP 500 every time
  | 'flaky-500' // HTTP 500 on odd calls, the active PPO answer on even calls
  | 'slow' // answers (the active PPO 271) only after the sandbox's slowMs
  | 'reply-999' // HTTP 400 whose x12 is a 999 rejecting the 270
  | 'truncated-271' // a 271 cut off before the subscriber loop
  | 'malformed-json'; // HTTP 200 whose body is not JSON

export interface SandboxPatient {
  firstName: string;
  lastName: string;
  /** MM-DD-YYYY, as the API takes it. */
  dob: string;
  memberId: string;
  payerId: string;
  payerName: string;
  scenario: string;
  /** A rejection instead of benefits: AAA03, AAA04 and the loop it stands in. */
  aaa?: { code: string; followUp: string; loop: '2100A' | '2100C' };
  fault?: SandboxFault;
  /** Set when the patient is a dependent: the answer carries a 2000D loop under this subscriber. */
  subscriber?: { firstName: string; lastName: string; dob: string };
  /** Plan dates (CCYYMMDD) for DTP*346 / DTP*347, eligibility begin for DTP*356. */
  planBegin?: string;
  planEnd?: string;
  eligibilityBegin?: string;
  /** REF*6P of the 2100C (group number and name). */
  group?: { number: string; name: string };
  benefits?: EbRow[];
  /** Another member's 271 (AAA 75) sent in the same reply ahead of the patient's (several transactions). */
  otherMemberFirst?: { firstName: string; lastName: string; memberId: string };
  /** Benefit rows sent in the subscriber's 2110C when the patient is a dependent (must not be used). */
  subscriberBenefits?: EbRow[];
  /** What the API must answer for this patient (docs/eligibility.md); absent for rejections and faults. */
  expected?: {
    coverageStatus: CoverageStatus;
    inNetwork: BenefitBlock;
    outNetwork: BenefitBlock;
    plan?: Plan;
    otherPayers?: OtherPayer[];
    /** The notice codes, in order (none when absent). */
    notices?: NoticeCode[];
    /** Asked with these service types (the 270's EQs); `benefits` entries must match these parts. */
    asks?: string[];
    services?: Record<string, Partial<ServiceBenefit>>;
  };
}

const NA = 'N/A';
const fig = (copay: string, total: string, remaining: string, coinsurance: string, stopLoss: string, stopLossRemaining = NA): BenefitFigures => ({
  copay,
  deductible: { total, remaining },
  coinsurance,
  stopLoss,
  stopLossRemaining,
});
const NONE = fig(NA, NA, NA, NA, NA);

const PPO = { payerId: 'SBXPPO', payerName: 'SANDBOX HEALTH PPO' };
const HMO = { payerId: 'SBXHMO', payerName: 'SANDBOX HEALTH HMO' };
/** CMS is Stedi's primary payer id for Medicare; COB checks refuse it up front. */
const MEDICARE = { payerId: 'CMS', payerName: 'CMS' };

const ALL_MEDICAL = ['30', '1', '33', '35', '47', '48', '50', '86', '88', '98', 'AL', 'MH', 'UC'];

/** A PPO with every slot filled, plus rows the rules must pass over (procedure-specific, other service, other time). */
const PPO_BENEFITS: EbRow[] = [
  { info: '1', services: ALL_MEDICAL, insuranceType: 'PR', planDescription: 'GOLD PPO 1500' },
  // In network. An ER copay tied to a procedure code is dropped, though it comes first.
  { info: 'B', level: 'IND', services: ['98'], insuranceType: 'PR', timePeriod: '27', amount: '75', network: 'Y', procedure: ['HC', '99285'] },
  { info: 'B', level: 'IND', services: ['98'], insuranceType: 'PR', timePeriod: '27', amount: '25', network: 'Y' },
  { info: 'B', level: 'FAM', services: ['98'], insuranceType: 'PR', timePeriod: '27', amount: '50', network: 'Y' },
  // Service 1 ranks after 30; time 22 ranks after 23: both lose to the 23/30 row below.
  { info: 'C', level: 'IND', services: ['1'], insuranceType: 'PR', timePeriod: '23', amount: '2500', network: 'Y' },
  { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '22', amount: '1800', network: 'Y' },
  { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '1500', network: 'Y' },
  { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '29', amount: '1250.5', network: 'Y' },
  { info: 'C', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '3000', network: 'Y' },
  // Family remaining comes from year-to-date met: 3000 − 1150.25.
  { info: 'C', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '24', amount: '1150.25', network: 'Y' },
  { info: 'A', level: 'IND', services: ['30'], insuranceType: 'PR', percent: '.2', network: 'Y' },
  { info: 'A', level: 'FAM', services: ['30'], insuranceType: 'PR', percent: '0.20', network: 'Y' },
  // Out-of-pocket remaining (EB06 29) is no stop-loss total: it is stopLossRemaining.
  { info: 'G', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '29', amount: '4200', network: 'Y' },
  { info: 'G', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '6000', network: 'Y' },
  { info: 'G', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '12000', network: 'Y' },
  // Out of network.
  { info: 'B', level: 'IND', services: ['98'], insuranceType: 'PR', timePeriod: '27', amount: '60', network: 'N' },
  { info: 'B', level: 'FAM', services: ['98'], insuranceType: 'PR', timePeriod: '27', amount: '120', network: 'N' },
  { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '3000', network: 'N' },
  { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '29', amount: '3000', network: 'N' },
  { info: 'C', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '6000', network: 'N' },
  { info: 'C', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '24', amount: '450', network: 'N' },
  { info: 'A', level: 'IND', services: ['30'], insuranceType: 'PR', percent: '.4', network: 'N' },
  { info: 'A', level: 'FAM', services: ['30'], insuranceType: 'PR', percent: '.4', network: 'N' },
  { info: 'G', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '12000', network: 'N' },
  { info: 'G', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '24000', network: 'N' },
];

const PPO_EXPECTED = {
  coverageStatus: 'Active' as const,
  inNetwork: {
    individual: fig('$25.00', '$1,500.00', '$1,250.50', '20%', '$6,000.00', '$4,200.00'),
    family: fig('$50.00', '$3,000.00', '$1,849.75', '20%', '$12,000.00'),
  },
  outNetwork: {
    individual: fig('$60.00', '$3,000.00', '$3,000.00', '40%', '$12,000.00'),
    family: fig('$120.00', '$6,000.00', '$5,550.00', '40%', '$24,000.00'),
  },
};

/** Patients showing the revision-2 rules (docs/eligibility.md), each named in its scenario. */
const R2_PATIENTS: SandboxPatient[] = [
  {
    firstName: 'Ruth',
    lastName: 'Alvarez',
    dob: '08-19-1948',
    memberId: '2WX7YT9QA21',
    ...MEDICARE,
    scenario: 'Medicare Part B deductible reported under service type 96 ($257.00, $0.00 left); Original Medicare, so no family figures',
    planBegin: '20130801',
    benefits: [
      { info: '1', services: ['30'], insuranceType: 'MA' },
      { info: '1', services: ['30', '96', '98'], insuranceType: 'MB' },
      { info: 'C', services: ['96'], insuranceType: 'MB', timePeriod: '23', amount: '257' },
      { info: 'C', services: ['96'], insuranceType: 'MB', timePeriod: '29', amount: '0' },
      { info: 'A', services: ['96'], insuranceType: 'MB', percent: '.2' },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: { individual: fig(NA, '$257.00', '$0.00', '20%', NA), family: NONE },
      outNetwork: { individual: fig(NA, '$257.00', '$0.00', '20%', NA), family: NONE },
      plan: { insuranceType: { code: 'MB', name: 'Medicare Part B' }, planBegin: '2013-08-01' },
      notices: [],
    },
  },
  {
    firstName: 'George',
    lastName: 'Baker',
    dob: '02-14-1951',
    memberId: '3HK8PL2MN45',
    ...MEDICARE,
    scenario:
      'Enrolled in a Medicare Advantage plan: an EB*R row (EB04 HN) with its 2120 payer becomes otherPayers and a MEDICARE_ADVANTAGE notice (r3 rule 8)',
    planBegin: '20160201',
    benefits: [
      { info: '1', services: ['30'], insuranceType: 'MA' },
      { info: '1', services: ['30'], insuranceType: 'MB' },
      {
        info: 'R',
        services: ['30'],
        insuranceType: 'HN',
        dates: [{ qualifier: '290', format: 'RD8', value: '20250101-20251231' }],
        otherPayer: { entity: 'PRP', name: 'SUNSHINE MEDICARE ADVANTAGE', payerId: 'SBXMAP', memberId: 'MAP7781234' },
      },
      { info: 'C', services: ['96'], insuranceType: 'MB', timePeriod: '23', amount: '257' },
      { info: 'C', services: ['96'], insuranceType: 'MB', timePeriod: '29', amount: '257' },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: { individual: fig(NA, '$257.00', '$257.00', NA, NA), family: NONE },
      outNetwork: { individual: fig(NA, '$257.00', '$257.00', NA, NA), family: NONE },
      otherPayers: [
        {
          name: 'SUNSHINE MEDICARE ADVANTAGE',
          payerId: 'SBXMAP',
          insuranceType: { code: 'HN', name: 'Health Maintenance Organization (HMO) - Medicare Risk' },
          serviceTypes: ['30'],
          coverageBegin: '2025-01-01',
          coverageEnd: '2025-12-31',
          memberId: 'MAP7781234',
          activeOnDate: true,
        },
      ],
      notices: ['MEDICARE_ADVANTAGE'],
    },
  },
  {
    firstName: 'Carlos',
    lastName: 'Rivera',
    dob: '10-03-1983',
    memberId: 'PPO500005',
    ...PPO,
    scenario:
      'Filler amounts: the out-of-network out-of-pocket rows say 99999.99 ("no limit"), so they and their 29 sibling are dropped (N/A, not $99,999.99); a $0 deductible has $0.00 left',
    planBegin: '20250101',
    benefits: [
      { info: '1', services: ['30'], insuranceType: 'PR', planDescription: 'CORE PPO 0' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '0', network: 'Y' },
      { info: 'C', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '0', network: 'Y' },
      { info: 'G', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '6000', network: 'Y' },
      { info: 'G', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '12000', network: 'Y' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '2000', network: 'N' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '29', amount: '1500', network: 'N' },
      { info: 'C', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '4000', network: 'N' },
      { info: 'G', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '99999.99', network: 'N' },
      { info: 'G', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '29', amount: '99999.99', network: 'N' },
      { info: 'G', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '99999.99', network: 'N' },
      { info: 'B', level: 'IND', services: ['98'], insuranceType: 'PR', timePeriod: '27', amount: '35', network: 'Y' },
      { info: 'A', level: 'IND', services: ['30'], insuranceType: 'PR', percent: '.3', network: 'N' },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: { individual: fig('$35.00', '$0.00', '$0.00', NA, '$6,000.00'), family: fig(NA, '$0.00', '$0.00', NA, '$12,000.00') },
      outNetwork: { individual: fig(NA, '$2,000.00', '$1,500.00', '30%', NA), family: fig(NA, '$4,000.00', NA, NA, NA) },
      notices: [],
    },
  },
  {
    firstName: 'Emma',
    lastName: 'Wilson',
    dob: '05-27-1992',
    memberId: 'PPO600006',
    ...PPO,
    scenario:
      'A vision plan section after the medical plan (a second EB*1 listing 30 with another plan name): its rows, such as a $0 out-of-network out-of-pocket, are dropped',
    planBegin: '20250101',
    benefits: [
      { info: '1', services: ['30'], insuranceType: 'PR', planDescription: 'SILVER PPO 2000' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '2000', network: 'Y' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '29', amount: '800', network: 'Y' },
      { info: 'G', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '7000', network: 'Y' },
      { info: 'B', level: 'IND', services: ['98'], insuranceType: 'PR', timePeriod: '27', amount: '30', network: 'Y' },
      { info: 'A', level: 'IND', services: ['30'], insuranceType: 'PR', percent: '.2', network: 'Y' },
      { info: '1', services: ['30', 'AL'], insuranceType: 'PR', planDescription: 'VISION PLUS' },
      { info: 'G', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '0', network: 'N' },
      { info: 'B', level: 'IND', services: ['AL'], insuranceType: 'PR', timePeriod: '27', amount: '10', network: 'Y' },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: { individual: fig('$30.00', '$2,000.00', '$800.00', '20%', '$7,000.00'), family: NONE },
      outNetwork: { individual: NONE, family: NONE },
      plan: { name: 'SILVER PPO 2000', insuranceType: { code: 'PR', name: 'Preferred Provider Organization (PPO)' }, planBegin: '2025-01-01' },
      notices: [],
    },
  },
  {
    firstName: 'Hannah',
    lastName: 'Kim',
    dob: '12-09-1987',
    memberId: 'HSA700007',
    ...PPO,
    scenario: 'HSA plan that tracks only family accumulators: individual deductible and out-of-pocket N/A, family figures filled, FAMILY_LEVEL_ONLY notice',
    planBegin: '20250101',
    benefits: [
      { info: '1', services: ['30'], insuranceType: 'PR', planDescription: 'BRONZE HSA 6000' },
      { info: 'C', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '6000', network: 'Y' },
      { info: 'C', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '29', amount: '4500', network: 'Y' },
      { info: 'G', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '12000', network: 'Y' },
      { info: 'G', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '29', amount: '10250', network: 'Y' },
      { info: 'A', services: ['30'], insuranceType: 'PR', percent: '.1', network: 'Y' },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: { individual: fig(NA, NA, NA, '10%', NA), family: fig(NA, '$6,000.00', '$4,500.00', '10%', '$12,000.00', '$10,250.00') },
      outNetwork: { individual: NONE, family: NONE },
      notices: ['FAMILY_LEVEL_ONLY'],
    },
  },
  {
    firstName: 'Olivia',
    lastName: 'Grant',
    dob: '07-04-1990',
    memberId: 'PPO900009',
    ...PPO,
    scenario:
      "Two 271 transactions in one reply: another member's (AAA 75) first, then hers; the answer comes from the one whose member id matches, and the other one's AAA does not count",
    planBegin: '20250101',
    otherMemberFirst: { firstName: 'OWEN', lastName: 'GRANT', memberId: 'PPO900010' },
    benefits: [
      { info: '1', services: ['30'], insuranceType: 'PR', planDescription: 'GOLD PPO 1500' },
      { info: 'B', level: 'IND', services: ['98'], insuranceType: 'PR', timePeriod: '27', amount: '30', network: 'Y' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '1500', network: 'Y' },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: { individual: fig('$30.00', '$1,500.00', NA, NA, NA), family: NONE },
      outNetwork: { individual: NONE, family: NONE },
      notices: [],
    },
  },
  {
    firstName: 'Marcus',
    lastName: 'Lee',
    dob: '03-30-1976',
    memberId: 'PPO800008',
    ...PPO,
    scenario:
      "Per-service benefits: office, chiropractic, physical therapy, mental health and urgent care copays, prior-authorization flags, visit limits, vision not covered; group number; procedure 97110; last year's deductible row dropped by its own date",
    planBegin: '20250101',
    eligibilityBegin: '20190301',
    group: { number: 'GRP-55012', name: 'NORTHWIND TRADERS' },
    benefits: [
      { info: '1', services: ['30', '98', '33', 'PT', 'MH', 'UC'], insuranceType: 'PR', planDescription: 'GOLD PPO 1500' },
      // Last plan year's deductible, bounded by its own DTP: dropped for a 2025 date of service.
      {
        info: 'C',
        level: 'IND',
        services: ['30'],
        insuranceType: 'PR',
        timePeriod: '23',
        amount: '1000',
        network: 'Y',
        dates: [{ qualifier: '292', format: 'RD8', value: '20240101-20241231' }],
      },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '1500', network: 'Y' },
      { info: 'C', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '29', amount: '900', network: 'Y' },
      { info: 'C', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '3000', network: 'Y' },
      { info: 'C', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '29', amount: '2100', network: 'Y' },
      { info: 'G', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '6000', network: 'Y' },
      { info: 'G', level: 'IND', services: ['30'], insuranceType: 'PR', timePeriod: '29', amount: '5100', network: 'Y' },
      { info: 'G', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '23', amount: '12000', network: 'Y' },
      { info: 'G', level: 'FAM', services: ['30'], insuranceType: 'PR', timePeriod: '29', amount: '10200', network: 'Y' },
      { info: 'A', level: 'IND', services: ['30'], insuranceType: 'PR', percent: '.2', network: 'Y' },
      { info: 'A', level: 'IND', services: ['30'], insuranceType: 'PR', percent: '.4', network: 'N' },
      { info: 'B', level: 'IND', services: ['98'], insuranceType: 'PR', timePeriod: '27', amount: '25', network: 'Y' },
      { info: 'B', level: 'IND', services: ['98'], insuranceType: 'PR', timePeriod: '27', amount: '60', network: 'N' },
      {
        info: 'B',
        level: 'IND',
        services: ['33'],
        insuranceType: 'PR',
        timePeriod: '27',
        amount: '40',
        authorization: 'Y',
        network: 'Y',
        messages: ['PRIOR AUTHORIZATION REQUIRED AFTER THE FIRST 12 VISITS'],
      },
      { info: 'F', level: 'IND', services: ['33'], insuranceType: 'PR', timePeriod: '23', quantityQualifier: 'VS', quantity: '20', network: 'Y' },
      { info: 'B', level: 'IND', services: ['PT'], insuranceType: 'PR', timePeriod: '27', amount: '45', authorization: 'Y', network: 'Y' },
      { info: 'F', level: 'IND', services: ['PT'], insuranceType: 'PR', timePeriod: '23', quantityQualifier: 'VS', quantity: '30', network: 'Y' },
      { info: 'B', level: 'IND', services: ['MH'], insuranceType: 'PR', timePeriod: '27', amount: '20', authorization: 'N', network: 'Y' },
      { info: 'B', level: 'IND', services: ['UC'], insuranceType: 'PR', timePeriod: '27', amount: '75', network: 'Y' },
      { info: 'I', services: ['AL'], insuranceType: 'PR', messages: ['ROUTINE VISION IS NOT A BENEFIT OF THIS PLAN'] },
      {
        info: 'B',
        level: 'IND',
        services: ['PT'],
        insuranceType: 'PR',
        timePeriod: '27',
        amount: '45',
        authorization: 'Y',
        network: 'Y',
        procedure: ['HC', '97110'],
        messages: ['THERAPEUTIC EXERCISE COUNTS TOWARD THE PT VISIT LIMIT'],
      },
    ],
    expected: {
      coverageStatus: 'Active',
      inNetwork: {
        individual: fig('$25.00', '$1,500.00', '$900.00', '20%', '$6,000.00', '$5,100.00'),
        family: fig(NA, '$3,000.00', '$2,100.00', NA, '$12,000.00', '$10,200.00'),
      },
      outNetwork: { individual: fig('$60.00', NA, NA, '40%', NA), family: NONE },
      plan: {
        name: 'GOLD PPO 1500',
        insuranceType: { code: 'PR', name: 'Preferred Provider Organization (PPO)' },
        groupNumber: 'GRP-55012',
        groupName: 'NORTHWIND TRADERS',
        planBegin: '2025-01-01',
        eligibilityBegin: '2019-03-01',
      },
      notices: [],
    },
  },
];

/** Patients showing the revision-3 rules (docs/eligibility.md#revision-3-per-service-answers-a-biller-trusts), one rule each unless named. */
const R3_PATIENTS: SandboxPatient[] = [
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
