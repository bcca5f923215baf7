/**
 * The batch routes' answers (docs/batch.md): submit's 202, a batch's status, a page of items. Declared
 * once: lib/batch's view types are derived from them, and the OpenAPI document and the tests read them.
 */
import { eligibilityResponseSchema } from './eligibility.js';
import { errorResponseSchema } from './errors.js';
import { BATCH_STATUSES, ITEM_STATES } from './vocabulary.js';

const count = { type: 'integer', minimum: 0 } as const;
const counts = {
  type: 'object',
  required: ['pending', 'inProgress', 'completed', 'failed', 'cancelled'],
  properties: { pending: count, inProgress: count, completed: count, failed: count, cancelled: count },
} as const;
const outcomes = {
  type: 'object',
  required: ['active', 'inactive', 'unknown'],
  properties: { active: count, inactive: count, unknown: count },
} as const;
const batchStatus = { type: 'string', enum: BATCH_STATUSES } as const;
const uuid = { type: 'string', format: 'uuid' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;

export const batchAcceptedSchema = {
  type: 'object',
  required: ['batchId', 'status', 'totalCount', 'invalidCount', 'createdAt'],
  properties: {
    batchId: uuid,
    name: { type: 'string' },
    status: batchStatus,
    totalCount: { type: 'integer' },
    invalidCount: { type: 'integer' },
    createdAt: dateTime,
  },
} as const;

export const batchStatusSchema = {
  type: 'object',
  required: ['batchId', 'status', 'totalCount', 'counts', 'outcomes', 'createdAt', 'updatedAt'],
  properties: {
    batchId: uuid,
    name: { type: 'string' },
    status: batchStatus,
    totalCount: { type: 'integer' },
    counts,
    outcomes,
    createdAt: dateTime,
    updatedAt: dateTime,
    completedAt: dateTime,
  },
} as const;

export const batchItemSchema = {
  type: 'object',
  required: ['index', 'state', 'attempts'],
  properties: {
    index: count,
    clientRef: { type: 'string' },
    state: { type: 'string', enum: ITEM_STATES },
    attempts: count,
    completedAt: dateTime,
    status: { type: 'integer', description: 'The HTTP status the real-time route answered.' },
    answer: eligibilityResponseSchema,
    error: errorResponseSchema,
  },
} as const;

export const batchItemPageSchema = {
  type: 'object',
  required: ['items'],
  properties: {
    items: { type: 'array', items: batchItemSchema },
    nextPageToken: { type: 'string' },
  },
} as const;

/**
 * The batch schemas leave `additionalProperties` open (as published), so `FromSchema` gives their objects a
 * `[key: string]: unknown` index; the answers have only the named keys, and their types say so.
 */
export type Closed<T> = T extends readonly (infer U)[]
  ? Closed<U>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : number extends K ? never : K]: Closed<T[K]> }
    : T;
