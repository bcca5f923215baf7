import { randomUUID } from 'node:crypto';
import type { Clock } from '../config/index.js';
import { fail, ok, serviceError, type FieldError, type Result } from '../errors/index.js';
import type { RouteOutcome } from '../http/index.js';
import { log } from '../logging/index.js';
import { refuseUnsignableCallback } from './callback-url.js';
import type { ItemQueue, WebhookQueue } from './queue.js';
import type { BatchStore } from './store.js';
import { readEnvelope, readItems } from './submission.js';
import {
  emptyCounts,
  emptyOutcomes,
  FAN_OUT_ITEMS,
  ITEM_STATES,
  type BatchAccepted,
  type BatchRecord,
  type BatchSettings,
  type FanOutMessage,
  type ItemRecord,
  type ItemState,
} from './types.js';
import { batchView, itemView } from './views.js';
import { settle, unfinished } from './worker.js';

/**
 * The four batch routes (docs/batch.md): submit (202 + Location), status, items (paged), cancel.
 * A batch id is a random UUID; another client's batch is answered exactly like an unknown one (404).
 */

const BATCH_PATH = '/api/eligibility/batch/v1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const MAX_PAGE = 500;
/**
 * A page of items ends early, with a nextPageToken, before its body passes this (docs/batch.md#poll):
 * 500 rich answers can pass the 5 MB an answer may have, and a page must never fail for its size.
 */
export const MAX_PAGE_BYTES = 4 * 1024 * 1024;
/** Room for an item's own fields (index, clientRef, state, attempts, dates, status) beside its answer. */
const ITEM_FIELDS_BYTES = 256;
/** The first read of a page; the next ones are sized by the room left and the items' size so far. */
const FIRST_READ = 100;
const viewBytes = (item: ItemRecord): number =>
  ITEM_FIELDS_BYTES + (item.answer ? Buffer.byteLength(item.answer) : 0) + (item.clientRef ? Buffer.byteLength(item.clientRef) * 6 : 0);
const DEFAULT_PAGE = 100;

export interface BatchRouteDeps {
  store: BatchStore;
  items: ItemQueue;
  webhooks: WebhookQueue;
  settings: BatchSettings;
  /** Plain http callbacks to loopback (the local server only). */
  allowLoopbackHttp: boolean;
  /** The client's webhook signing secrets: a callbackUrl needs one (docs/batch.md#webhook-secrets). */
  webhookSecretsFor: (clientId: string) => Promise<string[]>;
  clock: Clock;
  newId?: () => string;
}

export interface Submitted {
  status: 202;
  location: string;
  body: Record<string, unknown>;
}

const notFound = () => fail<never>(serviceError('NOT_FOUND', { message: 'No batch with this id' }));

/** The caller's own batch, or NOT_FOUND (unknown, malformed or another client's: one answer). */
export async function ownBatch(store: BatchStore, clientId: string, batchId: string): Promise<Result<BatchRecord>> {
  if (!UUID.test(batchId)) return notFound();
  const batch = await store.getBatch(batchId);
  return batch && batch.clientId === clientId ? ok(batch) : notFound();
}

export async function submitBatch(deps: BatchRouteDeps, input: { body: unknown; clientId: string }): Promise<Result<Submitted>> {
  const envelope = readEnvelope(input.body as Record<string, unknown>, deps.settings, { allowLoopbackHttp: deps.allowLoopbackHttp });
  if (!envelope.ok) return envelope;
  const unsignable = await refuseUnsignableCallback(deps.webhookSecretsFor, input.clientId, envelope.value.callbackUrl);
  if (unsignable) return unsignable;
  const batchId = (deps.newId ?? randomUUID)();
  const now = new Date(deps.clock.now());
  const submission = readItems(envelope.value, (index) => `${batchId}-${index}`, now);
  const runnable = submission.items.filter((item) => item.state === 'PENDING');
  const counted = runnable.filter((item) => item.counted).length;
  if (!(await deps.store.reserve(input.clientId, counted, deps.settings.maxPendingItems))) {
    return fail(
      serviceError('BATCH_LIMIT_EXCEEDED', {
        message: `This client may have at most ${deps.settings.maxPendingItems.toLocaleString('en-US')} batch items not yet finished; try again once some finish`,
      }),
    );
  }
  const createdAt = now.toISOString();
  const counts = { ...emptyCounts(), pending: runnable.length, failed: submission.invalidCount };
  const batch: BatchRecord = {
    batchId,
    clientId: input.clientId,
    ...(submission.name === undefined ? {} : { name: submission.name }),
    ...(submission.callbackUrl === undefined ? {} : { callbackUrl: submission.callbackUrl }),
    status: 'PENDING',
    totalCount: submission.items.length,
    invalidCount: submission.invalidCount,
    counts,
    outcomes: emptyOutcomes(),
    createdAt,
    updatedAt: createdAt,
  };
  try {
    await deps.store.create(
      batch,
      submission.items.map((item): ItemRecord => ({ ...item, batchId })),
    );
    // Ten items per message would be a thousand sends: one message per 100 items, the worker sends them on.
    const fanOuts: FanOutMessage[] = [];
    for (let i = 0; i < runnable.length; i += FAN_OUT_ITEMS)
      fanOuts.push({ batchId, clientId: input.clientId, indexes: runnable.slice(i, i + FAN_OUT_ITEMS).map((item) => item.index) });
    await deps.items.sendFanOuts(input.clientId, fanOuts);
  } catch (error) {
    await deps.store.release(input.clientId, counted);
    throw error;
  }
  // A batch of invalid items only is finished at once.
  if (runnable.length === 0) await settle(deps, batch);
  log.info('batch submitted', { batchId, items: batch.totalCount });
  const final = runnable.length === 0 ? await deps.store.getBatch(batchId) : batch;
  return ok({
    status: 202,
    location: `${BATCH_PATH}/${batchId}`,
    body: {
      batchId,
      ...(batch.name === undefined ? {} : { name: batch.name }),
      status: final?.status ?? batch.status,
      totalCount: batch.totalCount,
      invalidCount: batch.invalidCount,
      createdAt,
    } satisfies BatchAccepted,
  });
}

export async function batchStatus(deps: Pick<BatchRouteDeps, 'store'>, clientId: string, batchId: string): Promise<RouteOutcome> {
  const batch = await ownBatch(deps.store, clientId, batchId);
  return batch.ok ? { ok: true, body: batchView(batch.value), log: { batchId } } : batch;
}

export async function cancelBatch(deps: Pick<BatchRouteDeps, 'store' | 'webhooks' | 'clock'>, clientId: string, batchId: string): Promise<RouteOutcome> {
  const batch = await ownBatch(deps.store, clientId, batchId);
  if (!batch.ok) return batch;
  let after = batch.value;
  if (batch.value.status === 'PENDING' || batch.value.status === 'IN_PROGRESS') {
    await deps.store.setStatus(batchId, 'CANCELLED', ['PENDING', 'IN_PROGRESS'], new Date(deps.clock.now()).toISOString());
    after = (await deps.store.getBatch(batchId)) ?? after;
    // Nothing in progress (the items never started, or the last one finished between the read and the
    // cancel, its worker's final status losing to ours): the batch is final now, and only this request
    // is left to say so (docs/batch.md#cancel).
    if (after.status === 'CANCELLED' && !after.completedAt && unfinished(after) === 0) {
      await settle(deps, after);
      after = (await deps.store.getBatch(batchId)) ?? after;
    }
  }
  return { ok: true, body: batchView(after), log: { batchId } };
}

interface PageQuery {
  state?: ItemState;
  pageSize: number;
  afterIndex?: number;
}

/** The items route's query (`state`, `pageSize` 1–500, `pageToken`): every problem listed. */
function readPageQuery(query: Record<string, string>): Result<PageQuery> {
  const errors: FieldError[] = [];
  const page: PageQuery = { pageSize: DEFAULT_PAGE };
  if (query.state !== undefined) {
    if ((ITEM_STATES as readonly string[]).includes(query.state)) page.state = query.state as ItemState;
    else errors.push({ field: 'state', message: `must be one of ${ITEM_STATES.join(', ')}` });
  }
  if (query.pageSize !== undefined) {
    const size = Number(query.pageSize);
    if (/^\d+$/.test(query.pageSize) && size >= 1 && size <= MAX_PAGE) page.pageSize = size;
    else errors.push({ field: 'pageSize', message: `must be a whole number from 1 to ${MAX_PAGE}` });
  }
  if (query.pageToken !== undefined) {
    const decoded = Buffer.from(query.pageToken, 'base64url').toString('utf8');
    if (/^i:\d{1,6}$/.test(decoded)) page.afterIndex = Number(decoded.slice(2));
    else errors.push({ field: 'pageToken', message: 'must be a nextPageToken this route gave' });
  }
  return errors.length > 0 ? fail(serviceError('INVALID_REQUEST', { message: 'The query is invalid', errors })) : ok(page);
}

const pageToken = (lastIndex: number): string => Buffer.from(`i:${lastIndex}`).toString('base64url');

export async function batchItems(deps: Pick<BatchRouteDeps, 'store'>, clientId: string, batchId: string, query: Record<string, string>): Promise<RouteOutcome> {
  const page = readPageQuery(query);
  if (!page.ok) return page;
  const batch = await ownBatch(deps.store, clientId, batchId);
  if (!batch.ok) return batch;
  const { state, pageSize, afterIndex } = page.value;
  // Pending items of a cancelled batch show as CANCELLED: filter on the view, not the stored state.
  const storedState = batch.value.status === 'CANCELLED' && (state === 'CANCELLED' || state === 'PENDING') ? undefined : state;
  // Read in steps sized by what the page can still hold, and cut at the byte budget: 500 rich answers
  // are not all read to send a third of them.
  const kept: ItemRecord[] = [];
  let bytes = 0;
  let after = afterIndex;
  let lastIndex: number | undefined;
  for (let step = Math.min(pageSize, FIRST_READ); kept.length < pageSize; ) {
    const read = await deps.store.listItems(batchId, {
      limit: step,
      ...(storedState ? { state: storedState } : {}),
      ...(after === undefined ? {} : { afterIndex: after }),
    });
    let cut = false;
    for (const item of read.items) {
      const size = viewBytes(item);
      if (kept.length > 0 && bytes + size > MAX_PAGE_BYTES) {
        cut = true;
        break;
      }
      kept.push(item);
      bytes += size;
    }
    lastIndex = cut ? kept[kept.length - 1]!.index : read.lastIndex;
    if (cut || read.lastIndex === undefined) break;
    after = read.lastIndex;
    const average = bytes / Math.max(1, kept.length);
    step = Math.min(pageSize - kept.length, Math.floor((MAX_PAGE_BYTES - bytes) / average) + 1);
  }
  const items = kept.map((item) => itemView(batch.value, item)).filter((view) => state === undefined || view.state === state);
  return { ok: true, body: { items, ...(lastIndex === undefined ? {} : { nextPageToken: pageToken(lastIndex) }) }, log: { batchId } };
}
