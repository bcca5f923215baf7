import type { Coding, OperationOutcomeIssue } from '@medplum/fhirtypes';
import type { ErrorCode } from '../errors/index.js';
import type { BenefitFigures, CoverageStatus } from '../eligibility/types.js';
import type { Occurrence } from '../validation/responses/vocabulary.js';

/**
 * Every code the FHIR route reads or writes (docs/fhir.md#code-systems): the code systems, and one table
 * per mapping between our answer and FHIR R4's terms. Tables, not branches: each has a unit test.
 */

export const SYSTEMS = {
  /** X12 005010 service type codes (element 1365): item.category in and out. */
  x12ServiceType: 'https://codesystem.x12.org/005010/1365',
  /** The same codes under the system Medplum writes: item.category in. */
  x12ServiceTypeMedplum: 'https://x12.org/codes/service-type-codes',
  /** X12 005010 eligibility or benefit information codes (element 1390, EB01): the out-of-pocket maximum. */
  x12BenefitInfo: 'https://codesystem.x12.org/005010/1390',
  /** X12 005010 time period qualifiers (element 615, EB06): the term of a per-visit, per-episode or per-admission deductible. */
  x12TimePeriod: 'https://codesystem.x12.org/005010/615',
  /** X12 005010 reject reason codes (element 901, AAA03): payer rejections in `error[]`. */
  x12RejectReason: 'https://codesystem.x12.org/005010/901',
  benefitType: 'http://terminology.hl7.org/CodeSystem/benefit-type',
  benefitNetwork: 'http://terminology.hl7.org/CodeSystem/benefit-network',
  benefitUnit: 'http://terminology.hl7.org/CodeSystem/benefit-unit',
  benefitTerm: 'http://terminology.hl7.org/CodeSystem/benefit-term',
  /** Our error codes (docs/api.md#errors) in OperationOutcome.issue.details. */
  errorCode: 'urn:eligibility-service:error-code',
  /** The tag that asks for mock mode (docs/fhir.md#mock-mode). */
  requestMode: 'urn:eligibility-service:request-mode',
  /** Our provider id as an identifier (docs/fhir.md#identifiers). */
  providerId: 'urn:eligibility-service:provider-id',
  /** Our payer id as an identifier (docs/fhir.md#identifiers). */
  payerId: 'urn:eligibility-service:payer-id',
  /** The US National Provider Identifier. */
  npi: 'http://hl7.org/fhir/sid/us-npi',
  /** HL7 v2 identifier types: `MB` (member number) on Coverage.identifier. */
  identifierType: 'http://terminology.hl7.org/CodeSystem/v2-0203',
} as const;

/** Systems whose item.category codes are X12 service type codes (docs/fhir.md#code-systems). */
export const SERVICE_TYPE_SYSTEMS: ReadonlySet<string> = new Set([SYSTEMS.x12ServiceType, SYSTEMS.x12ServiceTypeMedplum]);

/**
 * The modifier extensions this service understands. FHIR requires refusing a resource carrying a
 * modifierExtension the reader does not know (it changes the meaning of what it sits on): none is known yet.
 */
export const KNOWN_MODIFIER_EXTENSIONS: ReadonlySet<string> = new Set<string>();

/** `meta.tag` of the CoverageEligibilityRequest (or the Bundle) that turns on mock mode. */
export const MOCK_TAG = { system: SYSTEMS.requestMode, code: 'mock' } as const;

/** Procedure code systems accepted in item.productOrService (CPT, HCPCS Level II, CDT), as US Core and Da Vinci name them. */
export const PROCEDURE_SYSTEMS: ReadonlySet<string> = new Set([
  'http://www.ama-assn.org/go/cpt',
  'urn:oid:2.16.840.1.113883.6.12',
  'https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets',
  'http://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets',
  'urn:oid:2.16.840.1.113883.6.285',
  'http://www.ada.org/cdt',
  'http://ada.org/cdt',
  'urn:oid:2.16.840.1.113883.6.13',
]);

/** The two blocks of an answer → HL7 benefit-network. */
export const NETWORKS = {
  inNetwork: { system: SYSTEMS.benefitNetwork, code: 'in', display: 'In Network' },
  outNetwork: { system: SYSTEMS.benefitNetwork, code: 'out', display: 'Out of Network' },
} as const satisfies Record<'inNetwork' | 'outNetwork', Coding>;

/** The two levels of a block → HL7 benefit-unit. */
export const UNITS = {
  individual: { system: SYSTEMS.benefitUnit, code: 'individual', display: 'Individual' },
  family: { system: SYSTEMS.benefitUnit, code: 'family', display: 'Family' },
} as const satisfies Record<'individual' | 'family', Coding>;

/**
 * The term of an item that carries a deductible or an out-of-pocket maximum: the answer picks the
 * payer's calendar-year, service-year or yearly row first (docs/eligibility.md), so the figures are annual.
 */
export const ANNUAL_TERM = { system: SYSTEMS.benefitTerm, code: 'annual', display: 'Annual' } as const satisfies Coding;

/**
 * The term of a per-occurrence deductible's item (docs/fhir.md#benefits): HL7 benefit-term has only annual,
 * day and lifetime, so the X12 time period (EB06) the payer used is the coding.
 */
export const OCCURRENCE_TERMS = {
  Episode: { system: SYSTEMS.x12TimePeriod, code: '26', display: 'Episode' },
  Visit: { system: SYSTEMS.x12TimePeriod, code: '27', display: 'Visit' },
  Admission: { system: SYSTEMS.x12TimePeriod, code: '36', display: 'Admission' },
} as const satisfies Record<Occurrence, Coding>;

/** FHIR R4 issue-type codes (OperationOutcome.issue.code). */
export type IssueType = OperationOutcomeIssue['code'];

export type FigureName = keyof Pick<BenefitFigures, 'copay' | 'coinsurance' | 'deductible' | 'stopLoss'>;

/**
 * Each figure → benefit.type. HL7 benefit-type has no out-of-pocket maximum: it carries the X12 EB01
 * code `G` ("Out of Pocket (Stop Loss)") beside the text.
 */
export const BENEFIT_TYPES = {
  deductible: { coding: [{ system: SYSTEMS.benefitType, code: 'deductible', display: 'Deductible' }] },
  copay: { coding: [{ system: SYSTEMS.benefitType, code: 'copay', display: 'Copayment per service' }] },
  coinsurance: { coding: [{ system: SYSTEMS.benefitType, code: 'copay-percent', display: 'Copayment Percent per service' }] },
  stopLoss: { coding: [{ system: SYSTEMS.x12BenefitInfo, code: 'G', display: 'Out of Pocket (Stop Loss)' }], text: 'Out-of-pocket maximum' },
} as const satisfies Record<FigureName, { coding: Coding[]; text?: string }>;

/** coverageStatus → insurance[].inforce (absent when the payer said neither). */
export const INFORCE: Readonly<Record<CoverageStatus, boolean | undefined>> = { Active: true, Inactive: false, Unknown: undefined };

/** Our error codes → OperationOutcome issue type (FHIR R4 issue-type). */
export const ISSUE_TYPES = {
  NOT_FOUND: 'not-found',
  METHOD_NOT_ALLOWED: 'not-supported',
  UNSUPPORTED_MEDIA_TYPE: 'not-supported',
  INVALID_JSON: 'structure',
  INVALID_REQUEST: 'invalid',
  PROVIDER_NOT_ENROLLED: 'forbidden',
  PAYLOAD_TOO_LARGE: 'too-long',
  INVALID_FILE: 'invalid',
  UNSUPPORTED_PAYER: 'not-supported',
  PAYER_NOT_SUPPORTED: 'not-supported',
  IDEMPOTENCY_KEY_REUSED: 'conflict',
  REQUEST_IN_PROGRESS: 'conflict',
  PAYER_REJECTED: 'business-rule',
  LETTER_NOT_GENERATED: 'processing',
  BATCH_LIMIT_EXCEEDED: 'throttled',
  DISCOVERY_LIMIT_EXCEEDED: 'throttled',
  PAYER_UNAVAILABLE: 'transient',
  AI_UNAVAILABLE: 'transient',
  UPSTREAM_TIMEOUT: 'timeout',
  UPSTREAM_ERROR: 'exception',
  CONFIGURATION_ERROR: 'exception',
  INTERNAL_ERROR: 'exception',
} as const satisfies Record<ErrorCode, IssueType>;

/** The issue type of a body without a code (the exact mock errors, 500 and 502: docs/api.md#mock-mode). */
export const UNCODED_ISSUE_TYPE: IssueType = 'exception';

/** A field problem's issue type: a missing value is `required`, anything else `invalid`. */
export const fieldIssueType = (message: string): IssueType => (message.startsWith('is required') ? 'required' : 'invalid');
