/**
 * Response shapes of the eligibility check (docs/eligibility.md). All figures here are the REST
 * answer's display strings; inside the service they are numbers (figures.ts), formatted by present.ts.
 */

export const NOT_AVAILABLE = 'N/A';

interface Deductible {
  /** Money text ("$1,234.50") or "N/A". */
  total: string;
  remaining: string;
}

/** The five figures of one level that mock answers carry (docs/api.md#mock-mode). */
export interface SpecFigures {
  copay: string;
  deductible: Deductible;
  /** Percentage text ("20%", "12.5%") or "N/A". */
  coinsurance: string;
  stopLoss: string;
}

export interface SpecBlock {
  individual: SpecFigures;
  family: SpecFigures;
}

/** A level of a real answer: the mock's five figures plus what is left of the out-of-pocket maximum. */
export interface BenefitFigures extends SpecFigures {
  stopLossRemaining: string;
}

export interface BenefitBlock {
  individual: BenefitFigures;
  family: BenefitFigures;
}

export type CoverageStatus = 'Active' | 'Inactive' | 'Unknown';

/** A code with its X12 name. */
export interface CodeName {
  code: string;
  name: string;
}

/** docs/eligibility.md#plan-and-people */
export interface Plan {
  name?: string;
  insuranceType?: CodeName;
  groupNumber?: string;
  groupName?: string;
  planNumber?: string;
  /** ISO YYYY-MM-DD. */
  planBegin?: string;
  planEnd?: string;
  eligibilityBegin?: string;
}

export interface Subscriber {
  firstName?: string;
  lastName?: string;
  memberId?: string;
  dateOfBirth?: string;
}

export type Relationship = 'spouse' | 'child' | 'other adult' | 'other';

export interface Dependent {
  firstName?: string;
  lastName?: string;
  dateOfBirth?: string;
  relationship?: Relationship;
}

/**
 * docs/eligibility.md#limitations: an EB01 F row (quantity, unit, amount, period, network, level) or
 * an HSD segment (quantity, unit, period, periodCount, remaining).
 */
export interface Limitation {
  quantity?: number;
  unit?: string;
  amount?: string;
  period?: string;
  /** HSD06: how many periods (HSD only). */
  periodCount?: number;
  /** HSD05 29: the quantity is what remains (HSD only). */
  remaining?: boolean;
  /** EB12 of an F row (always present on those; HSD items have none). */
  network?: 'in' | 'out' | 'any';
  level?: 'individual' | 'family';
}

/** The fields whose figures a `benefits` entry may take from the plan level (docs/eligibility.md#per-service-figures-fall-back-to-the-plan). */
export type PlanField = 'copay' | 'coinsurance' | 'deductible' | 'stopLoss';

export type ServiceStatus = 'Active' | 'NotCovered' | 'Inactive' | 'Unknown';

/** docs/eligibility.md#benefits-per-service-type */
export interface ServiceBenefit {
  serviceType: CodeName;
  status: ServiceStatus;
  inNetwork: BenefitBlock;
  outNetwork: BenefitBlock;
  /** The fields of which at least one slot took the plan-level figure, in the order of PlanField. */
  fromPlan: PlanField[];
  authorizationRequired?: boolean;
  limitations: Limitation[];
  messages: string[];
}

/** docs/eligibility.md#procedures */
export interface ProcedureBenefit {
  code: string;
  inNetwork: BenefitBlock;
  outNetwork: BenefitBlock;
  authorizationRequired?: boolean;
  messages: string[];
}

/** docs/eligibility.md#other-payers */
export interface OtherPayer {
  name?: string;
  payerId?: string;
  insuranceType?: CodeName;
  serviceTypes: string[];
  coverageBegin?: string;
  coverageEnd?: string;
  memberId?: string;
  /** False when the coverage ended before, or begins after, the request's date of coverage. */
  activeOnDate: boolean;
}

export type NoticeCode = 'OTHER_PAYER' | 'MEDICARE_ADVANTAGE' | 'FAMILY_LEVEL_ONLY' | 'SERVICE_NOT_RETURNED';

export interface Notice {
  code: NoticeCode;
  message: string;
}

/** What a 271 answers for the patient (everything of the 200 body but the message, time and COB). */
export interface BenefitSummary {
  inNetwork: BenefitBlock;
  outNetwork: BenefitBlock;
  coverageStatus: CoverageStatus;
  /** 2100A NM103, when present. */
  payerName?: string;
  plan: Plan;
  subscriber: Subscriber;
  dependent?: Dependent;
  benefits: ServiceBenefit[];
  procedures?: ProcedureBenefit[];
  otherPayers: OtherPayer[];
  notices: Notice[];
}

/** What the request asks about, as the 271 reading needs it. */
export interface EligibilityQuestion {
  /** 2100C NM109 to pick among several 271 transactions. */
  memberId?: string;
  /** The date of service, YYYYMMDD. */
  dateOfCoverage?: string;
  /** The service types the request named (absent: the default ["30"], which names nothing explicitly). */
  serviceTypeCodes?: readonly string[];
  procedureCodes?: readonly string[];
}
