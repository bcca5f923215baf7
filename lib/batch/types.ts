/**
 * Batch eligibility (docs/batch.md): a batch of eligibility request bodies run one by one through
 * the real-time route's engine. These are the records the store keeps and the answers the routes give.
 * The answers' shapes are derived from lib/validation/responses/batch.ts.
 */
import type { FromSchema } from 'json-schema-to-ts';
import {
  type BATCH_STATUSES,
  type batchAcceptedSchema,
  type batchItemSchema,
  type batchStatusSchema,
  type Closed,
  ITEM_STATES as ALL_ITEM_STATES,
} from '../validation/index.js';

export type BatchStatus = (typeof BATCH_STATUSES)[number];
export type ItemState = (typeof ALL_ITEM_STATES)[number];

export const ITEM_STATES: readonly ItemState[] = ALL_ITEM_STATES;

/** Submit's 202 body (docs/batch.md#submit). */
export type BatchAccepted = Closed<FromSchema<typeof batchAcceptedSchema>>;
/** The status and cancel routes' body (docs/batch.md#poll). */
export type BatchStatusView = Closed<FromSchema<typeof batchStatusSchema>>;
/** One item as the items route lists it. */
export type BatchItemView = Closed<FromSchema<typeof batchItemSchema>>;

export type Counts = BatchStatusView['counts'];
export type Outcomes = BatchStatusView['outcomes'];

export interface BatchRecord {
  batchId: string;
  clientId: string;
  name?: string;
  callbackUrl?: string;
  status: BatchStatus;
  totalCount: number;
  invalidCount: number;
  counts: Counts;
  outcomes: Outcomes;
  createdAt: string;
  updatedAt: string;
  completedAt?: string;
}

/** One item as stored: the validated request (patient data: the table is KMS-encrypted) and its result. */
export interface ItemRecord {
  batchId: string;
  index: number;
  clientRef?: string;
  state: ItemState;
  /** Upstream attempts started (a redelivery after a crash reuses the attempt: same Idempotency-Key). */
  attempts: number;
  /** The validated eligibility body; absent for an item refused at submit. */
  request?: Record<string, unknown>;
  /** Counts against the client's unfinished-items limit (real checks; mock items cost nothing). */
  counted: boolean;
  /** HTTP status and exact body the real-time route answered (the body as its JSON text). */
  status?: number;
  answer?: string;
  completedAt?: string;
  /** When the first attempt started (ms since epoch): the retry window runs from here. */
  firstAttemptAt?: number;
  /** When the current attempt started (ms since epoch); a takeover keeps it. */
  attemptAt?: number;
  /** While IN_PROGRESS: until when the worker that claimed it holds it (ms since epoch). */
  leaseUntil?: number;
}

/** Limits and timings (docs/batch.md#limits); BATCH_* variables override the defaults. */
export interface BatchSettings {
  maxItems: number;
  maxPendingItems: number;
  retryHours: number;
  /** How long a claimed item is held before another delivery may take it over (worker timeout and more). */
  leaseMs: number;
}

export const DEFAULT_BATCH_SETTINGS: BatchSettings = { maxItems: 10_000, maxPendingItems: 20_000, retryHours: 8, leaseMs: 90_000 };

/** An item's queue message: ids only, never patient data. */
export interface ItemMessage {
  batchId: string;
  index: number;
}

/**
 * Up to FAN_OUT_ITEMS runnable items of a just-submitted batch, on the item queue: the worker that
 * receives it sends their own messages (docs/batch.md#engine), so a 10,000-item submit makes ten
 * SendMessageBatch calls instead of a thousand. Ids only.
 */
export interface FanOutMessage {
  batchId: string;
  clientId: string;
  indexes: number[];
}

export const FAN_OUT_ITEMS = 100;

export const emptyCounts = (): Counts => ({ pending: 0, inProgress: 0, completed: 0, failed: 0, cancelled: 0 });
export const emptyOutcomes = (): Outcomes => ({ active: 0, inactive: 0, unknown: 0 });
