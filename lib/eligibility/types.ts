/**
 * Response shapes of the eligibility check (docs/eligibility.md), derived from their one declaration
 * (lib/validation/responses: shared.ts, entries.ts, eligibility.ts) with `FromSchema`, so an answer
 * built without a required field fails to compile. All figures here are the REST answer's display
 * strings; inside the service they are numbers (figures.ts), formatted once by present.ts.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type {
  EligibilityNoticeCode,
  PLAN_FIELDS,
  benefitBlockSchema,
  benefitFiguresSchema,
  codeNameSchema,
  coverageStatusSchema,
  dependentSchema,
  estimateLineSchema,
  estimateSchema,
  limitationSchema,
  mockBenefitBlockSchema,
  mockBenefitFiguresSchema,
  mockEligibilityResponseSchema,
  noticeSchema,
  otherPayerSchema,
  planSchema,
  procedureBenefitSchema,
  realEligibilityResponseSchema,
  serviceBenefitSchema,
  subscriberSchema,
} from '../validation/index.js';

export const NOT_AVAILABLE = 'N/A';

/** The five figures of one level that mock answers carry (docs/api.md#mock-mode). */
export type SpecFigures = FromSchema<typeof mockBenefitFiguresSchema>;
export type SpecBlock = FromSchema<typeof mockBenefitBlockSchema>;

/** A level of a real answer: the mock's five figures plus what is left of the out-of-pocket maximum. */
export type BenefitFigures = FromSchema<typeof benefitFiguresSchema>;
export type BenefitBlock = FromSchema<typeof benefitBlockSchema>;

export type CoverageStatus = FromSchema<typeof coverageStatusSchema>;

/** A code with its X12 name. */
export type CodeName = FromSchema<typeof codeNameSchema>;

/** docs/eligibility.md#plan-and-people */
export type Plan = FromSchema<typeof planSchema>;
export type Subscriber = FromSchema<typeof subscriberSchema>;
export type Dependent = FromSchema<typeof dependentSchema>;
export type Relationship = NonNullable<Dependent['relationship']>;

/**
 * docs/eligibility.md#limitations: an EB01 F row (quantity, unit, amount, period, network, level) or
 * an HSD segment (quantity, unit, period, periodCount, remaining).
 */
export type Limitation = FromSchema<typeof limitationSchema>;

/** The fields whose figures a `benefits` entry may take from the plan level (docs/eligibility.md#per-service-figures-fall-back-to-the-plan). */
export type PlanField = (typeof PLAN_FIELDS)[number];

/** docs/eligibility.md#benefits-per-service-type */
export type ServiceBenefit = FromSchema<typeof serviceBenefitSchema>;
export type ServiceStatus = ServiceBenefit['status'];

/** docs/eligibility.md#procedures */
export type ProcedureBenefit = FromSchema<typeof procedureBenefitSchema>;

/** docs/eligibility.md#other-payers */
export type OtherPayer = FromSchema<typeof otherPayerSchema>;

export type NoticeCode = EligibilityNoticeCode;
/** A notice of the eligibility answer: the shared notice shape, with one of the eligibility codes. */
export type Notice = FromSchema<typeof noticeSchema> & { code: NoticeCode };

/** docs/eligibility.md#estimate */
export type Estimate = FromSchema<typeof estimateSchema>;
export type EstimateLine = FromSchema<typeof estimateLineSchema>;

/** The 200 body of a real check, keys in the documented order (docs/eligibility.md#the-response). */
export type EligibilityBody = Omit<FromSchema<typeof realEligibilityResponseSchema>, 'notices'> & { notices: Notice[] };
/** The 200 body of a mock scenario (docs/api.md#mock-mode). */
export type MockEligibilityBody = FromSchema<typeof mockEligibilityResponseSchema>;
/** The COB part of a `runCobCheck` answer: a COB answer, or `{message, code}` when it failed. */
export type CobPart = NonNullable<EligibilityBody['cob']>;

/** What a 271 answers for the patient (everything of the 200 body but the message, time, estimate and COB). */
export type BenefitSummary = Omit<EligibilityBody, 'message' | 'checkedAt' | 'estimate' | 'cob'>;

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
