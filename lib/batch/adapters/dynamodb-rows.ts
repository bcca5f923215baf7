import type { Counter } from '../store.js';
import { emptyCounts, emptyOutcomes, type BatchRecord, type BatchStatus, type ItemRecord, type ItemState } from '../types.js';

/**
 * The batch table's rows (docs/batch.md#engine; the layout is described in ./dynamodb.ts): keys, the
 * fields each kind of row holds, and the mapping between rows and the records batch code uses.
 */

export const TTL_SECONDS = 7 * 24 * 3600;
/** Until a batch completes, its rows carry a far expiry so nothing lingers forever if it never does. */
export const OPEN_TTL_SECONDS = 30 * 24 * 3600;
export const WRITE_CONCURRENCY = 8;
export const COUNTERS: Counter[] = ['pending', 'inProgress', 'completed', 'failed', 'cancelled', 'active', 'inactive', 'unknown'];

/** What toBatch reads of a META row (a projection names them when the row is read beside a chunk). */
export const BATCH_FIELDS = [
  'batchId',
  'clientId',
  'status',
  'totalCount',
  'invalidCount',
  ...COUNTERS,
  'createdAt',
  'updatedAt',
  'name',
  'callbackUrl',
  'completedAt',
];
/** The index of items by state (./dynamodb-states.ts): partition `stateKey`, sort `index`. */
export const STATE_INDEX = 'byState';
export const stateKey = (batchId: string, state: ItemState) => `${batchId}#${state}`;
export const batchKey = (batchId: string) => ({ pk: `BATCH#${batchId}`, sk: 'META' });
const pad = (index: number) => String(index).padStart(6, '0');
export const itemSk = (index: number) => `ITEM#${pad(index)}`;
export const chunkSk = (first: number) => `CHUNK#${pad(first)}`;
/**
 * Items per chunk: fixed, so item i sits at entries[i % 100] of chunk floor(i / 100) and a worker reads
 * just that entry. A valid request is at most ~2 KB (the schema bounds every field), so a chunk stays far
 * under DynamoDB's 400 KB; an invalid item's 400 body stays in its entry up to INLINE_ANSWER_CHARS, else it
 * goes to its own ITEM row.
 */
export const CHUNK_ITEMS = 100;
export const chunkFirst = (index: number) => index - (index % CHUNK_ITEMS);
export const itemKey = (batchId: string, index: number) => ({ pk: `BATCH#${batchId}`, sk: itemSk(index) });
export const chunkKey = (batchId: string, first: number) => ({ pk: `BATCH#${batchId}`, sk: chunkSk(first) });
/** What a touched item's row copies from its chunk entry (with `#index` and the `:row…` values of rowValues). */
export const ROW_FIELDS = 'batchId = :rowBatch, #index = :rowIndex, counted = :rowCounted, clientRef = :rowRef';
export const epoch = (iso: string, plus: number) => Math.floor(Date.parse(iso) / 1000) + plus;

export const isConditionFailure = (error: unknown) => (error as { name?: string } | undefined)?.name === 'ConditionalCheckFailedException';

export function toBatch(row: Record<string, unknown>): BatchRecord {
  const counts = emptyCounts();
  const outcomes = emptyOutcomes();
  for (const key of Object.keys(counts) as (keyof typeof counts)[]) counts[key] = Number(row[key] ?? 0);
  for (const key of Object.keys(outcomes) as (keyof typeof outcomes)[]) outcomes[key] = Number(row[key] ?? 0);
  const batch: BatchRecord = {
    batchId: row.batchId as string,
    clientId: row.clientId as string,
    status: row.status as BatchStatus,
    totalCount: Number(row.totalCount),
    invalidCount: Number(row.invalidCount ?? 0),
    counts,
    outcomes,
    createdAt: row.createdAt as string,
    updatedAt: row.updatedAt as string,
  };
  if (typeof row.name === 'string') batch.name = row.name;
  if (typeof row.callbackUrl === 'string') batch.callbackUrl = row.callbackUrl;
  if (typeof row.completedAt === 'string') batch.completedAt = row.completedAt;
  return batch;
}

/** The request is kept as its JSON text: one string attribute marshals and stores far faster than a nested map. */
export function toItem(row: Record<string, unknown>): ItemRecord {
  const { pk: _pk, sk: _sk, expiresAt: _expires, stateKey: _stateKey, request, ...rest } = row;
  // A row copies clientRef as null when the item has none.
  const fields = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== null));
  return { ...(fields as unknown as ItemRecord), ...(typeof request === 'string' ? { request: JSON.parse(request) as Record<string, unknown> } : {}) };
}

export const rowValues = (batchId: string, entry: ItemRecord) => ({
  ':rowBatch': batchId,
  ':rowIndex': entry.index,
  ':rowCounted': entry.counted,
  ':rowRef': entry.clientRef ?? null,
});

/** A submitted item as its chunk keeps it (the request as JSON text). */
export function toEntry(item: ItemRecord): Record<string, unknown> {
  const { request, batchId: _batch, ...rest } = item;
  return { ...rest, ...(request ? { request: JSON.stringify(request) } : {}) };
}

/**
 * An invalid item's 400 body stays in its chunk entry when it is at most this long (as long as a valid
 * request may be, so a chunk stays far under 400 KB): 10,000 invalid items are ~100 writes, not 10,000.
 * A longer one goes to the item's own row.
 */
export const INLINE_ANSWER_CHARS = 2_000;
export const answerInline = (item: ItemRecord): boolean => item.answer === undefined || item.answer.length <= INLINE_ANSWER_CHARS;

/** A chunk row's place in the state index: PENDING while an entry was never touched, then FAILED if it holds invalid items. */
export function chunkState(batchId: string, entries: Record<string, unknown>[]): Record<string, unknown> {
  const untouched = entries.filter((entry) => entry.state === 'PENDING').length;
  const invalid = entries.filter((entry) => entry.state === 'FAILED').length;
  const state: ItemState | undefined = untouched > 0 ? 'PENDING' : invalid > 0 ? 'FAILED' : undefined;
  return { index: entries[0]!.index, untouched, invalid, ...(state ? { stateKey: stateKey(batchId, state) } : {}) };
}

/** Items cut into chunks of CHUNK_ITEMS by index; an invalid item's entry keeps its answer when it is short (else its row does). */
export function chunksOf(items: ItemRecord[]): Record<string, unknown>[][] {
  const chunks = new Map<number, Record<string, unknown>[]>();
  for (const whole of items) {
    const { status: _status, answer: _answer, ...rest } = whole;
    const item: ItemRecord = answerInline(whole) ? whole : rest;
    const first = chunkFirst(item.index);
    const chunk = chunks.get(first) ?? [];
    chunk.push(toEntry(item));
    chunks.set(first, chunk);
  }
  return [...chunks.values()];
}

export async function inParallel<T>(work: T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, work.length) }, async () => {
    while (next < work.length) await run(work[next++]!);
  });
  await Promise.all(lanes);
}
