/**
 * The insurance card answer (docs/finding-coverage.md#insurance-card), declared once: lib/card's answer
 * type is derived from it, and the OpenAPI document and the tests read it. The field lists and
 * length limits are vocabulary.ts's, which the model's tool schema (lib/card/model.ts) also uses.
 */
import { noticeSchema, str } from './shared.js';
import { CARD_ADDRESS_MAX, CARD_FIELDS, CARD_LIST_MAX, CARD_TEXT_MAX, CONFIDENCE_LEVELS } from './vocabulary.js';

const text = (description: string, maxLength: number = CARD_TEXT_MAX) => ({ type: 'string', minLength: 1, maxLength, description }) as const;

export const cardSchema = {
  title: 'InsuranceCard',
  type: 'object',
  additionalProperties: false,
  description: 'Only what the card shows, as printed; a field the card does not show or that could not be read is absent.',
  properties: {
    payerName: text('The insurer as printed on the card.'),
    memberId: text('The member (subscriber) id as printed: compare it with the card before use.'),
    groupNumber: text('The group number.'),
    planName: text('The plan or product name.'),
    planType: text('The plan type as printed (PPO, HMO, EPO, Medicare Part A/B, Medicaid…).'),
    subscriberName: text('The subscriber (member) name as printed.'),
    dependents: { type: 'array', maxItems: CARD_LIST_MAX, items: text('A dependent named on the card.'), description: 'Dependents named on the card.' },
    rxBin: text('The pharmacy BIN.'),
    rxPcn: text('The pharmacy PCN.'),
    rxGroup: text('The pharmacy group.'),
    payerPhone: text('A phone number printed for members or providers.'),
    claimsAddress: text('The address printed for claims.', CARD_ADDRESS_MAX),
    copays: {
      type: 'array',
      maxItems: CARD_LIST_MAX,
      description: 'Copays printed on the card.',
      items: {
        title: 'CardCopay',
        type: 'object',
        additionalProperties: false,
        required: ['service', 'amount'],
        properties: { service: text('The service as printed (Office visit, Specialist, ER…).'), amount: text('The amount as printed ($25, 20%…).') },
      },
    },
  },
} as const;

export const payerMatchSchema = {
  title: 'PayerMatch',
  type: 'object',
  additionalProperties: false,
  required: ['payerId', 'name', 'score'],
  properties: {
    payerId: str('The payer id to send to the eligibility route.'),
    name: str("The payer's name in the directory."),
    score: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description:
        "How closely the directory's name matches the name on the card (1: every word of each is in the other), two decimals; the list is in the directory's order, best first.",
    },
  },
} as const;

export const cardResponseSchema = {
  title: 'InsuranceCardResponse',
  type: 'object',
  additionalProperties: false,
  required: ['card', 'confidence', 'payerMatches', 'notices'],
  properties: {
    card: cardSchema,
    confidence: {
      type: 'object',
      additionalProperties: false,
      description: 'How sure the reader is of each field it returned (a key per field of `card`).',
      properties: Object.fromEntries(CARD_FIELDS.map((field) => [field, { type: 'string', enum: CONFIDENCE_LEVELS }])) as Record<
        (typeof CARD_FIELDS)[number],
        { type: 'string'; enum: typeof CONFIDENCE_LEVELS }
      >,
    },
    payerMatches: {
      type: 'array',
      maxItems: 5,
      items: payerMatchSchema,
      description: "The payer directory searched with the card's payer name: at most 5, best first (empty when the card shows no payer name).",
    },
    notices: { type: 'array', items: noticeSchema, description: 'Always CONFIRM_CARD_FIELDS: compare the member id with the card before using it.' },
    eligibility: {
      type: 'object',
      description: "With `check`: the eligibility answer for the card's member id and best payer match, or that check's error body.",
    },
  },
} as const;
