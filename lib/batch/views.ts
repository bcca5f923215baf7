import type { BatchRecord, ItemRecord } from './types.js';

/**
 * What the status and items routes show (docs/batch.md#poll). A cancelled batch's items that had not
 * started are CANCELLED from the moment of the cancel, though the workers mark each one as its
 * message drains: the view says what the batch will do, not how far the draining got.
 */

export function batchView(batch: BatchRecord): Record<string, unknown> {
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
export function itemView(batch: BatchRecord, item: ItemRecord): Record<string, unknown> {
  const view: Record<string, unknown> = { index: item.index };
  if (item.clientRef !== undefined) view.clientRef = item.clientRef;
  view.state = viewState(batch, item);
  view.attempts = item.attempts;
  if (item.completedAt) view.completedAt = item.completedAt;
  if (item.status !== undefined && item.answer !== undefined) {
    view.status = item.status;
    // JSON.stringify(JSON.parse(text)) gives text back byte for byte when text came from JSON.stringify.
    view[item.status < 400 ? 'answer' : 'error'] = JSON.parse(item.answer) as unknown;
  }
  return view;
}
