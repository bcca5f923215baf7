/**
 * The payer directory's answers (docs/api.md#payer-directory), declared once: lib/payers' `Payer` and
 * `PayerPage` are derived from them, and the OpenAPI document and the tests read them.
 */
import { COVERAGE_TYPES, MAX_PAYER_PAGE_SIZE, TRANSACTIONS } from './vocabulary.js';

const support = { type: 'string', enum: ['SUPPORTED', 'NOT_SUPPORTED', 'ENROLLMENT_REQUIRED'] } as const;

export const payerSchema = {
  title: 'Payer',
  type: 'object',
  additionalProperties: false,
  required: ['payerId', 'name', 'aliases', 'coverageTypes', 'states', 'transactions'],
  properties: {
    payerId: { type: 'string', description: "The payer id to send as `payerId` (Stedi's primary payer id)." },
    name: { type: 'string', description: "The payer's business name." },
    aliases: { type: 'array', items: { type: 'string' }, description: 'Other payer ids that reach the same payer; any of them works as `payerId`.' },
    stediId: { type: 'string', description: "Stedi's own immutable payer id; omitted when the directory gives none." },
    coverageTypes: { type: 'array', items: { type: 'string', enum: COVERAGE_TYPES }, description: 'Empty when not classified yet.' },
    states: { type: 'array', items: { type: 'string' }, description: 'Where the payer operates (state codes); empty when not known.' },
    transactions: {
      type: 'object',
      additionalProperties: false,
      required: TRANSACTIONS,
      properties: { eligibility: support, cob: support },
      description: 'NOT_SUPPORTED here makes the eligibility or COB route refuse the payer with 422 PAYER_NOT_SUPPORTED before any charge.',
    },
  },
} as const;

export const payerPageSchema = {
  title: 'PayerPage',
  type: 'object',
  additionalProperties: false,
  required: ['payers'],
  properties: {
    payers: { type: 'array', maxItems: MAX_PAYER_PAGE_SIZE, items: payerSchema, description: 'Best matches first.' },
    nextPageToken: { type: 'string', description: 'Pass as pageToken for the next page; absent on the last page.' },
  },
} as const;
