/**
 * The pieces every response schema shares: money and percentage text, the benefit blocks, a code with
 * its name, the coverage status and the notice (docs/eligibility.md#the-response). Declared once as
 * JSON Schema `as const`: the answer types (`FromSchema`), the OpenAPI document and the tests' shape
 * checks all read these objects.
 */
import { CARD_NOTICE_CODES, ELIGIBILITY_NOTICE_CODES, LETTER_NOTICE_CODES, NOTICE_CODES, OCCURRENCES } from './vocabulary.js';

/** A string schema, with a description when given. */
export const str = (description?: string) => ({ type: 'string', ...(description ? { description } : {}) }) as const;
/** An ISO `YYYY-MM-DD` date with its description. */
export const isoDate = <D extends string>(description: D) => ({ type: 'string', format: 'date', description }) as const;

/** "$1,234.50" or "N/A". */
export const moneySchema = {
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
  properties: { total: moneySchema, remaining: moneySchema },
} as const;

/** The four figures every level has, mock or real. */
const figures = { copay: moneySchema, deductible, coinsurance: percent, stopLoss: moneySchema } as const;

/** A mock answer's level (docs/api.md#mock-mode): exactly the four figures. */
export const mockBenefitFiguresSchema = {
  title: 'MockBenefitFigures',
  type: 'object',
  additionalProperties: false,
  required: ['copay', 'deductible', 'coinsurance', 'stopLoss'],
  description: 'Figures for one level of a mock answer. stopLoss is the out-of-pocket maximum.',
  properties: figures,
} as const;

/** A deductible charged each visit, episode or admission (EB06 27, 26, 36), apart from the yearly one. */
const perOccurrenceDeductible = {
  title: 'PerOccurrenceDeductible',
  type: 'object',
  additionalProperties: false,
  required: ['amount', 'per'],
  description:
    'A deductible the payer charges each time (per visit, episode or admission, such as an emergency room visit deductible), apart from the yearly deductible; present only when the payer gives one.',
  properties: { amount: moneySchema, per: { type: 'string', enum: OCCURRENCES } },
} as const;

/** A real answer's level: the four figures and what is left of the out-of-pocket maximum, always present. */
export const benefitFiguresSchema = {
  title: 'BenefitFigures',
  type: 'object',
  additionalProperties: false,
  required: ['copay', 'deductible', 'coinsurance', 'stopLoss', 'stopLossRemaining'],
  description:
    'Figures for one level of a real answer. stopLoss is the out-of-pocket maximum; stopLossRemaining what is left of it; perOccurrenceDeductible a deductible charged per visit, episode or admission.',
  properties: { ...figures, stopLossRemaining: moneySchema, perOccurrenceDeductible },
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

export const codeNameSchema = {
  title: 'CodeName',
  type: 'object',
  additionalProperties: false,
  required: ['code', 'name'],
  properties: { code: str(), name: str() },
} as const;

/** One notice of an eligibility, letter or insurance card answer; its code is one of NOTICE_CODES (vocabulary.ts). */
export const noticeSchema = {
  title: 'Notice',
  type: 'object',
  additionalProperties: false,
  required: ['code', 'message'],
  properties: {
    code: {
      ...str(
        `A stable code, e.g. ${ELIGIBILITY_NOTICE_CODES.join(', ')} (eligibility), ${LETTER_NOTICE_CODES.join(', ')} (letter) or ${CARD_NOTICE_CODES.join(', ')} (insurance card).`,
      ),
      enum: NOTICE_CODES,
    },
    message: str('A sentence for a person; never contains patient data.'),
  },
} as const;

export const coverageStatusSchema = {
  type: 'string',
  enum: ['Active', 'Inactive', 'Unknown'],
  description: 'Active when the payer reports active coverage (an EB01 1–5 row), Inactive when it reports only inactive coverage (EB01 6–8), else Unknown.',
} as const;
