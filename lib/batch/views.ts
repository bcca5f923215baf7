import type { BatchItemView, BatchRecord, BatchStatusView, ItemRecord } from './types.js';

/**
 * What the status and items routes show (docs/batch.md#poll). A cancelled batch's items that had not
 * started are CANCELLED from the moment of the cancel, though the workers mark each one as its
 * message drains: the view says what the batch will do, not how far the draining got.
 */

export function batchView(batch: BatchRecord): BatchStatusView {
  const cancelled = batch.status === 'CANCELLED';
  const counts = cancelled ? { ...batch.counts, pending: 0, cancelled: batch.counts.cancelled + batch.counts.pending } : batch.counts;
  return {
    batchId: batch.batchId,
    ...(batch.name === undefined ? {} : { name: batch.name }),
    status: batch.status,
    totalCount: batch.totalCount,
    counts,
    outcomes: batch.outcomes,
    createdAt: batch.createdAt,
    updatedAt: batch.updatedAt,
    ...(batch.completedAt ? { completedAt: batch.completedAt } : {}),
  };
}

export const viewState = (batch: BatchRecord, item: ItemRecord) => (batch.status === 'CANCELLED' && item.state === 'PENDING' ? 'CANCELLED' : item.state);

/** One item as listed: the real-time route's status and body, under `answer` (2xx) or `error`. */
export function itemView(batch: BatchRecord, item: ItemRecord): BatchItemView {
  const { status, answer } = item;
  return {
    index: item.index,
    ...(item.clientRef === undefined ? {} : { clientRef: item.clientRef }),
    state: viewState(batch, item),
    attempts: item.attempts,
    ...(item.completedAt ? { completedAt: item.completedAt } : {}),
    // JSON.stringify(JSON.parse(text)) gives text back byte for byte when text came from JSON.stringify.
    ...(status === undefined || answer === undefined ? {} : status < 400 ? { status, answer: JSON.parse(answer) } : { status, error: JSON.parse(answer) }),
  };
}
