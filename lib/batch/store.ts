import type { BatchRecord, BatchStatus, Counts, ItemRecord, ItemState, Outcomes } from './types.js';

/**
 * What batch code needs from storage (docs/batch.md#engine). ./dynamodb.ts keeps it in one DynamoDB
 * table (KMS-encrypted, TTL); every state move is a conditional write and every counter an atomic add,
 * so any number of workers and duplicate deliveries agree on one history.
 */

export type Counter = keyof Counts | keyof Outcomes;

export type Claim =
  | { kind: 'claimed'; item: ItemRecord /** false when a crashed attempt is taken over (same attempt number) */; fresh: boolean }
  | { kind: 'busy'; leaseUntil: number }
  | { kind: 'finished'; state: ItemState }
  | { kind: 'missing' };

export interface ItemPage {
  items: ItemRecord[];
  /** The last index read when more may follow. */
  lastIndex?: number;
}

export interface ItemResult {
  state: 'COMPLETED' | 'FAILED';
  status: number;
  answer: string;
  completedAt: string;
}

export interface BatchStore {
  /** Adds `n` to the client's unfinished items unless that would pass `max`; false when it would. */
  reserve(clientId: string, n: number, max: number): Promise<boolean>;
  release(clientId: string, n: number): Promise<void>;
  create(batch: BatchRecord, items: ItemRecord[]): Promise<void>;
  getBatch(batchId: string): Promise<BatchRecord | undefined>;
  /** Every batch not yet completed: a scan of the whole table, for the local server's restart only. */
  openBatches(): Promise<BatchRecord[]>;
  /** Items after `afterIndex` in index order, `state` filtered, at most `limit`. */
  listItems(batchId: string, options: { afterIndex?: number; limit: number; state?: ItemState }): Promise<ItemPage>;
  /** The batch and the item as submit stored it (before any worker touched it), in one read; each undefined when there is none. */
  batchAndSubmitted(batchId: string, index: number): Promise<{ batch?: BatchRecord; entry?: ItemRecord }>;
  /** PENDING → IN_PROGRESS (or take over an IN_PROGRESS item whose lease ran out); `entry` when already read. */
  claim(batchId: string, index: number, nowMs: number, leaseMs: number, entry?: ItemRecord): Promise<Claim>;
  /**
   * Admits a claimed item's upstream call: one conditional write on the batch row, only while the batch
   * is PENDING or IN_PROGRESS (so never after a cancel). A `fresh` claim moves the counters (pending →
   * in progress) and the batch to IN_PROGRESS in that write; a takeover only touches `updatedAt`.
   * False when the batch was cancelled (or is gone).
   */
  admit(batchId: string, fresh: boolean, at: string): Promise<boolean>;
  /** IN_PROGRESS → CANCELLED for a claimed item whose batch was cancelled before its call, if this attempt still holds it. */
  cancelClaimed(batchId: string, index: number, attempts: number, at: string): Promise<boolean>;
  /** IN_PROGRESS → PENDING after a transient failure, if this attempt still holds it. */
  unclaim(batchId: string, index: number, attempts: number): Promise<boolean>;
  /** IN_PROGRESS → COMPLETED/FAILED, if this attempt still holds it. */
  finish(batchId: string, index: number, attempts: number, result: ItemResult): Promise<boolean>;
  /** PENDING → CANCELLED (the batch was cancelled before the item started). */
  cancelItem(batchId: string, index: number, at: string, entry?: ItemRecord): Promise<boolean>;
  /** Atomic adds to the batch's counters; answers the batch after them. */
  bump(batchId: string, deltas: Partial<Record<Counter, number>>, at: string): Promise<BatchRecord>;
  /** Moves the batch's status when it is one of `from`; false when it was not. */
  setStatus(batchId: string, to: BatchStatus, from: readonly BatchStatus[], at: string, completed?: boolean): Promise<boolean>;
}
