/** The insurance card answer's types, derived from its schema (lib/validation/responses/card.ts). */
import type { FromSchema } from 'json-schema-to-ts';
import type { cardResponseSchema } from '../validation/index.js';

export type CardAnswer = FromSchema<typeof cardResponseSchema>;
export type PayerMatch = CardAnswer['payerMatches'][number];
