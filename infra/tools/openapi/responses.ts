import { COB_CODES } from '../../../lib/cob/types.js';
import { ERROR_TABLE } from '../../../lib/errors/index.js';
import { payerPageSchema, payerSchema } from './payers-mcp.js';

/**
 * JSON Schemas of every response body: with the request schemas (lib/validation/schemas.ts) they are the one
 * source of the OpenAPI document (`npm run openapi`), and tests validate real answers against
 * them (test/openapi/responses.test.ts), so a key added to an answer without a schema fails.
 * Objects are closed (`additionalProperties: false`): add a new key here first. The shapes are
 * documented in docs/api.md and docs/eligibility.md; `title`s name the OpenAPI components.
 */

const str = (description?: string) => ({ type: 'string', ...(description ? { description } : {}) }) as const;
const isoDate = (description: string) => ({ type: 'string', format: 'date', description }) as const;

/** "$1,234.50" or "N/A". */
const money = {
  title: 'Money',
  type: 'string',
  pattern: '^(-?\\$\\d{1,3}(,\\d{3})*\\.\\d{2}|N/A)$',
  description:
    'Money text such as "$1,234.50" (a negative amount, which payers rarely send, as "-$5.00"), or "N/A" when the payer did not give the figure (N/A does not prove the benefit is absent).',
  examples: ['$1,234.50', 'N/A'],
} as const;

/** "20%", "12.5%" or "N/A". */
const percent = {
  title: 'Percent',
  type: 'string',
  pattern: '^(-?\\d+(\\.\\d{1,2})?%|N/A)$',
  description: 'Coinsurance as a percentage such as "20%" or "12.5%", or "N/A".',
  examples: ['20%', 'N/A'],
} as const;

const deductible = {
  title: 'Deductible',
  type: 'object',
  additionalProperties: false,
  required: ['total', 'remaining'],
  properties: { total: money, remaining: money },
} as const;

/** The four figures every level has, mock or real. */
const figures = { copay: money, deductible, coinsurance: percent, stopLoss: money } as const;

/** A mock answer's level (docs/api.md#mock-mode): exactly the four figures. */
export const mockBenefitFiguresSchema = {
  title: 'MockBenefitFigures',
  type: 'object',
  additionalProperties: false,
  required: ['copay', 'deductible', 'coinsurance', 'stopLoss'],
  description: 'Figures for one level of a mock answer. stopLoss is the out-of-pocket maximum.',
  properties: figures,
} as const;

/** A real answer's level: the four figures and what is left of the out-of-pocket maximum, always present. */
export const benefitFiguresSchema = {
  title: 'BenefitFigures',
  type: 'object',
  additionalProperties: false,
  required: ['copay', 'deductible', 'coinsurance', 'stopLoss', 'stopLossRemaining'],
  description: 'Figures for one level of a real answer. stopLoss is the out-of-pocket maximum; stopLossRemaining what is left of it.',
  properties: { ...figures, stopLossRemaining: money },
} as const;

export const mockBenefitBlockSchema = {
  title: 'MockBenefitBlock',
  type: 'object',
  additionalProperties: false,
  required: ['individual', 'family'],
  properties: { individual: mockBenefitFiguresSchema, family: mockBenefitFiguresSchema },
} as const;

export const benefitBlockSchema = {
  title: 'BenefitBlock',
  type: 'object',
  additionalProperties: false,
  required: ['individual', 'family'],
  properties: { individual: benefitFiguresSchema, family: benefitFiguresSchema },
} as const;

const codeName = {
  title: 'CodeName',
  type: 'object',
  additionalProperties: false,
  required: ['code', 'name'],
  properties: { code: str(), name: str() },
} as const;

const notice = {
  title: 'Notice',
  type: 'object',
  additionalProperties: false,
  required: ['code', 'message'],
  properties: {
    code: str(
      'A stable code, e.g. OTHER_PAYER, MEDICARE_ADVANTAGE, FAMILY_LEVEL_ONLY, SERVICE_NOT_RETURNED (eligibility) or UNVERIFIED_CODE_REMOVED, NOTES_NOT_MACHINE_READABLE, GLYPHS_REPLACED, CITATION_NOT_FOUND, CITATIONS_LIMITED (letter).',
    ),
    message: str('A sentence for a person; never contains patient data.'),
  },
} as const;

const coverageStatus = {
  type: 'string',
  enum: ['Active', 'Inactive', 'Unknown'],
  description: 'Active when the payer reports active coverage (an EB01 1–5 row), Inactive when it reports only inactive coverage (EB01 6–8), else Unknown.',
} as const;

// ---- COB -----------------------------------------------------------------------------------

const cobServiceTypes = { type: 'array', items: codeName } as const;

export const cobResponseSchema = {
  title: 'CobResponse',
  type: 'object',
  additionalProperties: false,
  required: ['cobCode', 'requestedPlanBenefits', 'additionalPlanBenefitInfo'],
  properties: {
    cobCode: {
      type: 'string',
      enum: [...COB_CODES],
      description:
        'MemberFoundNoCOB: no other coverage. CoverageOverlapNoBenefitOverlap: several coverages, no overlap in benefits. CoverageOverlapExistsNotSubjectToCob: overlap not subject to COB. CobInstanceExistsPrimacyUndetermined: COB exists, primacy undetermined (call the payer). CobInstanceExistsPrimacyDetermined: COB exists with primacy determined.',
    },
    requestedPlanBenefits: {
      type: 'array',
      description: 'The plan that was asked about.',
      items: {
        title: 'RequestedPlanBenefit',
        type: 'object',
        additionalProperties: false,
        required: ['serviceTypeCodes', 'benefitDate'],
        properties: {
          payerName: str(),
          serviceTypeCodes: cobServiceTypes,
          benefitDate: {
            type: 'object',
            additionalProperties: false,
            properties: { planStartDate: isoDate('Plan start, YYYY-MM-DD.') },
          },
        },
      },
    },
    additionalPlanBenefitInfo: {
      type: 'array',
      description: 'Other plans found for the member; empty when there is none.',
      items: {
        title: 'AdditionalPlanBenefit',
        type: 'object',
        additionalProperties: false,
        required: ['serviceTypeCodes', 'benefitDate', 'subscriber'],
        properties: {
          payerName: str(),
          payerPrimacy: { type: 'string', enum: ['PrimaryPayer', 'SecondaryPayer', 'TertiaryPayer', 'Undetermined'] },
          serviceTypeCodes: cobServiceTypes,
          benefitDate: {
            type: 'object',
            additionalProperties: false,
            properties: {
              overlapBeginDate: isoDate('Start of the overlap, YYYY-MM-DD.'),
              overlapEndDate: isoDate('End of the overlap, YYYY-MM-DD.'),
              planStartDate: isoDate('Other plan start, YYYY-MM-DD.'),
              planEndDate: isoDate('Other plan end, YYYY-MM-DD.'),
              coordinationOfBenefits: isoDate('COB date, YYYY-MM-DD.'),
            },
          },
          subscriber: {
            type: 'object',
            additionalProperties: false,
            properties: { firstName: str(), lastName: str(), dateOfBirth: isoDate('YYYY-MM-DD.'), memberId: str() },
          },
        },
      },
    },
  },
} as const;

// ---- eligibility ---------------------------------------------------------------------------

const limitation = {
  title: 'Limitation',
  type: 'object',
  description:
    'An EB01 F row (quantity, unit, amount, period, network, level; a filler amount such as 99999 is left out) or an HSD segment (quantity, unit, period, periodCount, remaining).',
  additionalProperties: false,
  properties: {
    quantity: { type: 'number', description: 'EB10, or HSD02 for a visit, day or quantity limit (HSD).' },
    unit: str('EB09 (or HSD01) quantity qualifier, by its X12 name (e.g. "Visits").'),
    amount: money,
    period: str('EB06 (or HSD05) time period, by its X12 name (e.g. "Calendar Year").'),
    periodCount: { type: 'number', description: 'HSD06: how many periods the HSD limit spans (HSD items only).' },
    remaining: { type: 'boolean', enum: [true], description: 'HSD05 is 29: the quantity is what remains of the limit (HSD items only).' },
    network: { type: 'string', enum: ['in', 'out', 'any'], description: 'EB12 of an EB01 F row; HSD items have none.' },
    level: { type: 'string', enum: ['individual', 'family'] },
  },
} as const;

const messages = {
  type: 'array',
  maxItems: 10,
  items: { type: 'string' },
  description: "The payer's free-text messages (MSG01), trimmed and deduplicated; at most 10.",
} as const;
const authorizationRequired = {
  type: 'boolean',
  description: 'Whether the payer says prior authorization is needed (EB11); omitted when it does not say.',
} as const;

const serviceBenefit = {
  title: 'ServiceBenefit',
  type: 'object',
  additionalProperties: false,
  required: ['serviceType', 'status', 'inNetwork', 'outNetwork', 'fromPlan', 'limitations', 'messages'],
  properties: {
    serviceType: codeName,
    status: { type: 'string', enum: ['Active', 'NotCovered', 'Inactive', 'Unknown'] },
    inNetwork: benefitBlockSchema,
    outNetwork: benefitBlockSchema,
    fromPlan: {
      type: 'array',
      uniqueItems: true,
      items: { type: 'string', enum: ['copay', 'coinsurance', 'deductible', 'stopLoss'] },
      description:
        'The fields of which at least one slot shows the plan-level figure (rows listing 30, 96 on a Medicare Part B row, or no service type) because no row for this service gave one; [] when none. NotCovered and Inactive entries never take plan figures.',
    },
    authorizationRequired,
    limitations: { type: 'array', items: limitation },
    messages,
  },
} as const;

const procedureBenefit = {
  title: 'ProcedureBenefit',
  type: 'object',
  additionalProperties: false,
  required: ['code', 'inNetwork', 'outNetwork', 'messages'],
  properties: {
    code: str('The requested CPT, HCPCS or CDT code.'),
    inNetwork: benefitBlockSchema,
    outNetwork: benefitBlockSchema,
    authorizationRequired,
    messages,
  },
} as const;

const plan = {
  title: 'Plan',
  type: 'object',
  additionalProperties: false,
  description: 'What the payer says about the plan; keys it does not give are omitted ({} when nothing is known).',
  properties: {
    name: str('EB05 plan coverage description.'),
    insuranceType: codeName,
    groupNumber: str(),
    groupName: str(),
    planNumber: str(),
    planBegin: isoDate('YYYY-MM-DD.'),
    planEnd: isoDate('YYYY-MM-DD (omitted for an open end).'),
    eligibilityBegin: isoDate('YYYY-MM-DD.'),
  },
} as const;

const subscriber = {
  title: 'Subscriber',
  type: 'object',
  additionalProperties: false,
  description: 'The subscriber as the payer wrote it (2100C).',
  properties: { firstName: str(), lastName: str(), memberId: str(), dateOfBirth: isoDate('YYYY-MM-DD.') },
} as const;

const dependent = {
  title: 'Dependent',
  type: 'object',
  additionalProperties: false,
  description: 'The dependent as the payer wrote it (2100D); present only when the 271 has a dependent loop.',
  properties: {
    firstName: str(),
    lastName: str(),
    dateOfBirth: isoDate('YYYY-MM-DD.'),
    relationship: { type: 'string', enum: ['spouse', 'child', 'other adult', 'other'] },
  },
} as const;

const otherPayer = {
  title: 'OtherPayer',
  type: 'object',
  additionalProperties: false,
  properties: {
    name: str(),
    payerId: str(),
    insuranceType: codeName,
    serviceTypes: { type: 'array', items: { type: 'string' } },
    coverageBegin: isoDate('YYYY-MM-DD.'),
    coverageEnd: isoDate('YYYY-MM-DD.'),
    memberId: str(),
    activeOnDate: {
      type: 'boolean',
      description: "false when this coverage ended before, or begins after, the request's dateOfCoverage; notices name only active payers.",
    },
  },
  required: ['serviceTypes', 'activeOnDate'],
} as const;

const estimateLine = {
  title: 'EstimateLine',
  type: 'object',
  additionalProperties: false,
  required: ['serviceTypeCode', 'amount', 'basis', 'copay', 'deductible', 'coinsurance', 'patientOwes', 'planPays'],
  description:
    'One line: copay, deductible and coinsurance are the parts charged on this line; patientOwes is their sum after the out-of-pocket cap, planPays the rest of amount. patientOwes and planPays are "N/A" when a figure they need is missing.',
  properties: {
    procedureCode: str("The line's procedure code, when it gave one."),
    serviceTypeCode: str("The line's service type (default 30)."),
    amount: money,
    basis: {
      type: 'string',
      enum: ['procedure', 'service', 'plan'],
      description:
        'Where the figures came from: the procedures entry (when it has any figure), else the benefits entry of the service type, else the plan-wide blocks.',
    },
    copay: money,
    deductible: money,
    coinsurance: money,
    patientOwes: money,
    planPays: money,
    missing: {
      type: 'array',
      items: { type: 'string', enum: ['deductibleRemaining', 'coinsurance', 'stopLossRemaining'] },
      description:
        'Figures the payer did not give. deductibleRemaining or coinsurance make patientOwes and planPays "N/A"; stopLossRemaining only means no out-of-pocket cap was applied.',
    },
  },
} as const;

const estimate = {
  title: 'Estimate',
  type: 'object',
  additionalProperties: false,
  required: ['network', 'lines', 'patientOwes', 'planPays', 'complete'],
  description:
    'What the patient may owe, only when the request sent estimate: each line applies copay, deductible, coinsurance and the out-of-pocket maximum, in that order, against running balances, exactly to the cent. It is a guide, not a promise: the payer adjudicates the claim and decides what is owed.',
  properties: {
    network: { type: 'string', enum: ['in', 'out'] },
    lines: { type: 'array', items: estimateLine },
    patientOwes: money,
    planPays: money,
    complete: { type: 'boolean', description: 'false when any line is missing a figure.' },
  },
} as const;

const cobFailure = {
  title: 'CobFailure',
  type: 'object',
  additionalProperties: false,
  required: ['message', 'code'],
  description: 'The COB part failed; the eligibility answer itself still stands.',
  properties: { message: str(), code: str('An error code from the error table, e.g. PAYER_UNAVAILABLE.') },
} as const;

/** A mock scenario's answer (docs/api.md#mock-mode): exactly these keys, plus cob with runCobCheck. */
export const mockEligibilityResponseSchema = {
  title: 'MockEligibilityResponse',
  type: 'object',
  additionalProperties: false,
  required: ['inNetwork', 'outNetwork', 'message'],
  description:
    "A mock scenario's fixed answer (mockRequest: true): exactly inNetwork, outNetwork and message, plus estimate when the request sent one and cob with runCobCheck.",
  properties: {
    inNetwork: mockBenefitBlockSchema,
    outNetwork: mockBenefitBlockSchema,
    message: { type: 'string', const: 'Mock Eligibility check successful.' },
    // Only when the request sent one: computed from the scenario's figures.
    estimate,
    // Only with runCobCheck: the scenario's fixed COB answer (a mock COB part never fails).
    cob: cobResponseSchema,
  },
} as const;

/** A real check's answer: every key it always has is required, so typed clients need no null checks for them. */
export const realEligibilityResponseSchema = {
  title: 'RealEligibilityResponse',
  type: 'object',
  additionalProperties: false,
  required: ['inNetwork', 'outNetwork', 'message', 'coverageStatus', 'checkedAt', 'plan', 'subscriber', 'benefits', 'otherPayers', 'notices'],
  description: "A real check's answer, from the payer's 271. payerName, dependent, procedures and cob appear when they apply.",
  properties: {
    inNetwork: benefitBlockSchema,
    outNetwork: benefitBlockSchema,
    message: { type: 'string', const: 'Eligibility check successful' },
    coverageStatus,
    payerName: str("The payer's name as the 271 gives it (omitted when absent)."),
    checkedAt: { type: 'string', format: 'date-time', description: 'When the 271 was received (ISO 8601 UTC).' },
    plan,
    subscriber,
    dependent,
    benefits: { type: 'array', maxItems: 100, items: serviceBenefit, description: 'One entry per service type: the requested ones first.' },
    procedures: { type: 'array', items: procedureBenefit, description: 'One entry per requested procedure code; present only when procedureCodes was sent.' },
    otherPayers: { type: 'array', items: otherPayer },
    notices: { type: 'array', items: notice },
    estimate,
    cob: { oneOf: [cobResponseSchema, cobFailure], description: 'Only with runCobCheck: the COB answer, or {message, code} when the COB part failed.' },
  },
} as const;

/** Either answer; `message` tells them apart (and narrows the type in generated clients). */
export const eligibilityResponseSchema = {
  title: 'EligibilityResponse',
  description:
    'A real check (RealEligibilityResponse, message "Eligibility check successful") or a mock scenario (MockEligibilityResponse, message "Mock Eligibility check successful."). Test `message` to tell them apart; in a generated TypeScript client that narrows the type, so every key a real answer always has is typed as present.',
  oneOf: [realEligibilityResponseSchema, mockEligibilityResponseSchema],
} as const;

// ---- letter --------------------------------------------------------------------------------

const letterCode = {
  title: 'VerifiedCode',
  type: 'object',
  additionalProperties: false,
  required: ['code', 'pages'],
  properties: {
    code: str(),
    description: str(),
    pages: {
      type: 'array',
      items: { type: 'integer', minimum: 1 },
      description: "The notes' pages (1-based) where the code was found, in its text layer or a cited passage.",
    },
  },
} as const;

export const letterResponseSchema = {
  title: 'LetterResponse',
  type: 'object',
  additionalProperties: false,
  required: ['timestamp', 'invoice_cost', 'patient_identifier', 'codes', 'citations', 'notices'],
  description: 'letter (output_format text, the default) or fileContent (pdf), never both. docs/letter.md describes codes, citations and notices.',
  properties: {
    letter: str('The whole letter in markdown.'),
    fileContent: { type: 'string', contentEncoding: 'base64', contentMediaType: 'application/pdf', description: 'The letter as a base64 PDF (US Letter).' },
    timestamp: { type: 'string', format: 'date-time', description: 'When the letter was generated (ISO 8601 UTC).' },
    invoice_cost: str('Exactly the visit_cost given.'),
    patient_identifier: str('The patient_identifier given.'),
    codes: {
      type: 'object',
      additionalProperties: false,
      required: ['icd10', 'cpt'],
      description:
        'Every ICD-10-CM (icd10), CPT or HCPCS (cpt) code in the letter body. A code the notes do not hold is removed from the body and named in an UNVERIFIED_CODE_REMOVED notice; for a scan (no text layer) codes stay unchecked, with a NOTES_NOT_MACHINE_READABLE notice.',
      properties: { icd10: { type: 'array', items: letterCode }, cpt: { type: 'array', items: letterCode } },
    },
    citations: {
      type: 'array',
      maxItems: 100,
      description:
        'The notes\' passages the letter cites, in order of first use; the letter marks them "[p. N]" and lists them under "Source documentation". A citation counts only when its page exists and its text is found on that page of the notes: others are dropped with a CITATION_NOT_FOUND notice, and past 100 a CITATIONS_LIMITED notice counts the rest.',
      items: {
        title: 'Citation',
        type: 'object',
        additionalProperties: false,
        required: ['page', 'citedText'],
        properties: {
          page: { type: 'integer', minimum: 1, description: '1-based start page of the cited passage.' },
          citedText: {
            type: 'string',
            maxLength: 500,
            description: 'The passage as the AI service quoted it (at most 500 characters), plain text: escape it before rendering it in HTML.',
          },
        },
      },
    },
    notices: { type: 'array', items: notice },
  },
  // Each branch names its property so the schema compiles in ajv's strict mode.
  oneOf: [
    { required: ['letter'], properties: { letter: { type: 'string' } } },
    { required: ['fileContent'], properties: { fileContent: { type: 'string' } } },
  ],
} as const;

// ---- health and errors ---------------------------------------------------------------------

export const healthResponseSchema = {
  title: 'HealthResponse',
  type: 'object',
  additionalProperties: false,
  required: ['status', 'version'],
  properties: { status: { type: 'string', const: 'ok' }, version: str('The service version (package.json).') },
} as const;

const ERROR_CODES = Object.keys(ERROR_TABLE);

export const errorResponseSchema = {
  title: 'Error',
  type: 'object',
  additionalProperties: false,
  required: ['message', 'code', 'requestId'],
  properties: {
    message: str('What went wrong, for a person.'),
    code: { type: 'string', enum: ERROR_CODES },
    requestId: str('The request id, also in the x-request-id header.'),
    errors: {
      type: 'array',
      maxItems: 50,
      description: 'INVALID_REQUEST: every problem, at most 50.',
      items: {
        title: 'FieldError',
        type: 'object',
        additionalProperties: false,
        required: ['field', 'message'],
        properties: { field: str('The field, e.g. patientDOB or serviceTypeCodes[2].'), message: str('What is wrong with it, in plain words.') },
      },
    },
    errorsTruncated: { type: 'boolean', description: 'true when more than 50 problems were found.' },
    rejections: {
      type: 'array',
      description: "PAYER_REJECTED (and AAA-based 502/503): the payer's AAA segments.",
      items: {
        title: 'Rejection',
        type: 'object',
        additionalProperties: false,
        required: ['code', 'description', 'followUpAction', 'loop'],
        properties: {
          code: str('AAA03 reject reason code.'),
          description: str(),
          followUpAction: str('AAA04 follow-up action with its description.'),
          loop: str(),
        },
      },
    },
  },
} as const;

/** The exact bodies of docs/api.md#errors (401, 403, mock-not-found, mock scenario 4, gateway 429). */
export const messageOnlySchema = {
  title: 'MessageOnly',
  type: 'object',
  additionalProperties: false,
  required: ['message'],
  properties: { message: str() },
} as const;

export const RESPONSE_SCHEMAS = {
  eligibility: eligibilityResponseSchema,
  cob: cobResponseSchema,
  letter: letterResponseSchema,
  health: healthResponseSchema,
  error: errorResponseSchema,
  messageOnly: messageOnlySchema,
  payer: payerSchema,
  payerPage: payerPageSchema,
} as const;
