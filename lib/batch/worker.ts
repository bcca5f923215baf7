import type { Clock } from '../config/index.js';
import { log } from '../logging/index.js';
import { nextTry } from './backoff.js';
import type { WebhookQueue } from './queue.js';
import type { BatchStore, Counter } from './store.js';
import type { BatchRecord, BatchSettings, ItemMessage } from './types.js';

/**
 * One item through the real-time engine (docs/batch.md#engine). The item is claimed by a conditional
 * write first, so a duplicate delivery of a finished item makes no upstream call; each attempt calls
 * upstream with `Idempotency-Key: <batchId>-<index>-<attempt>` (a delivery that takes over a crashed
 * attempt reuses its number, so the clearinghouse answers it without a second charge). Transient
 * failures (503, 504) go back to the queue with a growing delay; counters move by atomic adds, and the
 * worker that finishes the last item sets the final status and queues the webhook.
 *
 * Cancelled means never sent: after the item's claim, one conditional write on the batch row (the
 * counters' move, only while the batch is PENDING or IN_PROGRESS) admits the call; a batch cancelled
 * before it gets the item CANCELLED and no call (docs/batch.md#cancel).
 */

/** The real-time route's answer for one body: its HTTP status and exact JSON text. */
export type Check = (input: {
  body: Record<string, unknown>;
  clientId: string;
  requestId: string;
  idempotencyKey: string;
  /** When this attempt started (ms since epoch): the same for a takeover of it, so its requests are the same bytes. */
  attemptAt: number;
}) => Promise<{ status: number; body: string /** A part failed on an outage (the COB search): ask again, do not keep it. */; transient?: boolean }>;

export interface WorkerDeps {
  store: BatchStore;
  check: Check;
  webhooks: WebhookQueue;
  settings: BatchSettings;
  clock: Clock;
}

/** What to do with the message: delete it, or return it to the queue for `seconds`. */
export type Decision = { kind: 'done' } | { kind: 'retry'; seconds: number };

const DONE: Decision = { kind: 'done' };
/** Statuses the real-time route answers for an upstream that may answer later (unavailable, timed out). */
const TRANSIENT = new Set([503, 504]);

function outcomeOf(status: number, body: string): Counter | undefined {
  if (status >= 400) return undefined;
  const coverage = (JSON.parse(body) as { coverageStatus?: unknown }).coverageStatus;
  return coverage === 'Active' ? 'active' : coverage === 'Inactive' ? 'inactive' : 'unknown';
}

export async function processItem(deps: WorkerDeps, message: ItemMessage): Promise<Decision> {
  const { store, settings, clock } = deps;
  const { batchId, index } = message;
  const at = () => new Date(clock.now()).toISOString();
  // One read for the batch (cancelled? whose?) and the item as submitted (its request).
  const { batch, entry } = await store.batchAndSubmitted(batchId, index);
  if (!batch || !entry) return DONE;

  if (batch.status === 'CANCELLED') {
    if (await store.cancelItem(batchId, index, at(), entry)) {
      if (entry.counted) await store.release(batch.clientId, 1);
      await settle(deps, await store.bump(batchId, { pending: -1, cancelled: 1 }, at()));
    }
    return DONE;
  }

  const claim = await store.claim(batchId, index, clock.now(), settings.leaseMs, entry);
  if (claim.kind === 'missing' || claim.kind === 'finished') return DONE;
  if (claim.kind === 'busy') return { kind: 'retry', seconds: Math.max(1, Math.ceil((claim.leaseUntil - clock.now()) / 1000)) };
  const item = claim.item;
  // The batch may have been cancelled since the read: the call is admitted only while it is not.
  if (!(await store.admit(batchId, claim.fresh, at()))) {
    if (await store.cancelClaimed(batchId, index, item.attempts, at())) {
      if (item.counted) await store.release(batch.clientId, 1);
      await settle(deps, await store.bump(batchId, { [claim.fresh ? 'pending' : 'inProgress']: -1, cancelled: 1 }, at()));
    }
    return DONE;
  }
  const requestId = `${batchId}-${index}`;
  const answer = await deps.check({
    body: item.request ?? {},
    clientId: batch.clientId,
    requestId,
    idempotencyKey: `${requestId}-${item.attempts}`,
    attemptAt: item.attemptAt ?? item.firstAttemptAt ?? clock.now(),
  });
  const fields = { route: 'batch-item', batchId, itemIndex: index, status: answer.status, attempts: item.attempts };

  if (TRANSIENT.has(answer.status) || answer.transient === true) {
    const seconds = nextTry(item.attempts, item.firstAttemptAt ?? clock.now(), clock.now(), settings.retryHours);
    if (seconds !== undefined && (await store.unclaim(batchId, index, item.attempts))) {
      await store.bump(batchId, { pending: 1, inProgress: -1 }, at());
      log.info('batch item', { ...fields, retryInSeconds: seconds });
      return { kind: 'retry', seconds };
    }
  }

  const state = answer.status < 400 ? 'COMPLETED' : 'FAILED';
  if (!(await store.finish(batchId, index, item.attempts, { state, status: answer.status, answer: answer.body, completedAt: at() }))) return DONE;
  log.info('batch item', fields);
  const outcome = outcomeOf(answer.status, answer.body);
  const deltas: Partial<Record<Counter, number>> = {
    inProgress: -1,
    [state === 'COMPLETED' ? 'completed' : 'failed']: 1,
    ...(outcome ? { [outcome]: 1 } : {}),
  };
  const [after] = await Promise.all([store.bump(batchId, deltas, at()), item.counted ? store.release(batch.clientId, 1) : Promise.resolve()]);
  await settle(deps, after);
  return DONE;
}

/**
 * Items that can still change the outcome: in a cancelled batch only those in progress (its pending
 * items will never run, so the batch is final once none is in progress: docs/batch.md#cancel).
 */
export const unfinished = (batch: BatchRecord): number =>
  batch.status === 'CANCELLED' ? batch.counts.inProgress : batch.counts.pending + batch.counts.inProgress;

/** When nothing is left to run, the final status (once, by a conditional write) and the webhook. */
export async function settle(deps: Pick<WorkerDeps, 'store' | 'webhooks' | 'clock'>, batch: BatchRecord): Promise<void> {
  if (unfinished(batch) > 0) return;
  const at = new Date(deps.clock.now()).toISOString();
  const to = batch.status === 'CANCELLED' ? 'CANCELLED' : batch.counts.failed > 0 ? 'COMPLETED_WITH_ERRORS' : 'COMPLETED';
  const from = to === 'CANCELLED' ? (['CANCELLED'] as const) : (['PENDING', 'IN_PROGRESS'] as const);
  if (batch.completedAt) return;
  if (!(await deps.store.setStatus(batch.batchId, to, from, at, true))) return;
  log.info('batch finished', { batchId: batch.batchId, items: batch.totalCount });
  if (batch.callbackUrl) await deps.webhooks.sendWebhook(batch.batchId, batch.clientId);
}
