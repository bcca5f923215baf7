/**
 * The eligibility answers (docs/eligibility.md#the-response, docs/api.md#mock-mode), declared once: a
 * real check's, a mock scenario's, and either. lib/eligibility's answer types are derived from these
 * objects; the OpenAPI document and the tests read them.
 */
import { cobFailureSchema, cobResponseSchema } from './cob.js';
import { discoveryPartSchema } from './discovery-part.js';
import { dependentSchema, estimateSchema, otherPayerSchema, planSchema, procedureBenefitSchema, serviceBenefitSchema, subscriberSchema } from './entries.js';
import { benefitBlockSchema, coverageStatusSchema, mockBenefitBlockSchema, noticeSchema, str } from './shared.js';
import { MOCK_SUCCESS_MESSAGE, SUCCESS_MESSAGE } from './vocabulary.js';

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
    message: { type: 'string', const: MOCK_SUCCESS_MESSAGE },
    // Only when the request sent one: computed from the scenario's figures.
    estimate: estimateSchema,
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
    message: { type: 'string', const: SUCCESS_MESSAGE },
    coverageStatus: coverageStatusSchema,
    payerName: str("The payer's name as the 271 gives it (omitted when absent)."),
    checkedAt: { type: 'string', format: 'date-time', description: 'When the 271 was received (ISO 8601 UTC).' },
    plan: planSchema,
    subscriber: subscriberSchema,
    dependent: dependentSchema,
    benefits: { type: 'array', maxItems: 100, items: serviceBenefitSchema, description: 'One entry per service type: the requested ones first.' },
    procedures: {
      type: 'array',
      items: procedureBenefitSchema,
      description: 'One entry per requested procedure code; present only when procedureCodes was sent.',
    },
    otherPayers: { type: 'array', items: otherPayerSchema },
    notices: { type: 'array', items: noticeSchema },
    estimate: estimateSchema,
    cob: { oneOf: [cobResponseSchema, cobFailureSchema], description: 'Only with runCobCheck: the COB answer, or {message, code} when the COB part failed.' },
    discovery: discoveryPartSchema,
  },
} as const;

/** Either answer; `message` tells them apart (and narrows the type in generated clients). */
export const eligibilityResponseSchema = {
  title: 'EligibilityResponse',
  description:
    'A real check (RealEligibilityResponse, message "Eligibility check successful") or a mock scenario (MockEligibilityResponse, message "Mock Eligibility check successful."). Test `message` to tell them apart; in a generated TypeScript client that narrows the type, so every key a real answer always has is typed as present.',
  oneOf: [realEligibilityResponseSchema, mockEligibilityResponseSchema],
} as const;
