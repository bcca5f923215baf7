/**
 * What a sandbox test patient is (infra/sandbox/patients.ts): the EB rows its payer answers, the
 * faults it stands for, what the service must show for it; and the payers and the full PPO answer
 * several patients share.
 */
import type { BenefitBlock, BenefitFigures, CoverageStatus, NoticeCode, OtherPayer, Plan, ServiceBenefit } from '../../../lib/eligibility/index.js';

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
  /** A provider the row names (an HMO's primary care provider, EB01 L): its 2120 NM1, a person, with an NPI (XX). */
  benefitProvider?: { entity: 'P3' | '1P'; lastName: string; firstName: string; npi: string };
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
  /** The subscriber's date of death (CCYYMMDD): DTP*442 in 2100C (docs/eligibility.md#date-of-death). */
  dateOfDeath?: string;
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

export const NA = 'N/A';
export const fig = (copay: string, total: string, remaining: string, coinsurance: string, stopLoss: string, stopLossRemaining = NA): BenefitFigures => ({
  copay,
  deductible: { total, remaining },
  coinsurance,
  stopLoss,
  stopLossRemaining,
});
export const NONE = fig(NA, NA, NA, NA, NA);

export const PPO = { payerId: 'SBXPPO', payerName: 'SANDBOX HEALTH PPO' };
export const HMO = { payerId: 'SBXHMO', payerName: 'SANDBOX HEALTH HMO' };
/** The COB sandbox's own test payer (./cob-patients.ts). */
export const SANDBOX_PAYER_1 = { payerId: 'SANDBOX-PAYER-1', payerName: 'SANDBOX PAYER 1' };
/** CMS is Stedi's primary payer id for Medicare; COB checks refuse it up front. */
export const MEDICARE = { payerId: 'CMS', payerName: 'CMS' };

export const ALL_MEDICAL = ['30', '1', '33', '35', '47', '48', '50', '86', '88', '98', 'AL', 'MH', 'UC'];

/** A PPO with every slot filled, plus rows the rules must pass over (procedure-specific, other service, other time). */
export const PPO_BENEFITS: EbRow[] = [
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

export const PPO_EXPECTED = {
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
