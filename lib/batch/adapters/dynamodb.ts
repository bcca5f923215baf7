import { BatchGetCommand, BatchWriteCommand, GetCommand, paginateQuery, paginateScan, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { timerSleep, type Sleep } from '../../upstream/index.js';
import {
  answerInline,
  BATCH_FIELDS,
  batchKey,
  CHUNK_ITEMS,
  chunkFirst,
  chunkKey,
  chunksOf,
  chunkState,
  COUNTERS,
  epoch,
  inParallel,
  isConditionFailure,
  itemKey,
  OPEN_TTL_SECONDS,
  ROW_FIELDS,
  rowValues,
  stateKey,
  toBatch,
  toEntry,
  toItem,
  TTL_SECONDS,
  WRITE_CONCURRENCY,
} from './dynamodb-rows.js';
import { resendUntilDone, type ResendSchedule } from '../resend.js';
import { allItems, itemsInState, markTouched } from './dynamodb-lists.js';
import type { BatchStore, Claim, ItemPage, ItemResult } from '../store.js';
import type { BatchRecord, ItemRecord } from '../types.js';

/**
 * What DynamoDB left unprocessed in a BatchWriteItem or BatchGetItem is sent again, backing off (50 ms
 * doubling, at most 1 s), until nothing is left: AWS's advice.
 */
const UNPROCESSED_RESEND: ResendSchedule = { waitMs: (round) => Math.min(1000, 25 * 2 ** round) };

/** The one entry a projection `entries[i]` kept of a chunk row, when it is item `index`'s. */
function projectedEntry(row: Record<string, unknown> | undefined, batchId: string, index: number): ItemRecord | undefined {
  const entry = (row?.entries as Record<string, unknown>[] | undefined)?.[0];
  return entry && entry.index === index ? toItem({ ...entry, batchId }) : undefined;
}

/**
 * The batch store in one DynamoDB table (docs/batch.md#engine): partition key `pk`, sort key `sk`.
 *   BATCH#<id> / META            the batch, its counters (atomic adds) and status
 *   BATCH#<id> / CHUNK#<first>   up to 100 submitted items as submit left them (request, clientRef,
 *                                PENDING, or FAILED with the real-time 400): a 10,000-item submit is
 *                                ~100 writes, not 10,000
 *   BATCH#<id> / ITEM#<index>    an item once a worker (or a cancel) touched it: state, attempts,
 *                                answer; it overrides the chunk's entry
 * ITEM and CHUNK rows carry `stateKey` and `index`, the keys of the `byState` index (./dynamodb-lists.ts).
 *   CLIENT#<id> / LIMIT          the client's unfinished items (the BATCH_MAX_PENDING_ITEMS gate)
 * Indexes are zero-padded so rows sort. `expiresAt` (epoch seconds) is the table's TTL attribute:
 * 7 days after completion.
 */

/** `sleep` is the wait between resends of what DynamoDB left unprocessed (tests pass a fake). */
export function dynamoBatchStore(client: DynamoDBDocumentClient, table: string, sleep: Sleep = timerSleep): BatchStore {
  const untilProcessed = <T>(first: T[], send: (pending: T[]) => Promise<T[]>) => resendUntilDone(first, send, UNPROCESSED_RESEND, sleep);
  const update = (input: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>) => client.send(new UpdateCommand({ TableName: table, ...input }));
  const conditional = async (input: Parameters<typeof update>[0]): Promise<boolean> => {
    try {
      await update(input);
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  };
  const getItem = async (batchId: string, index: number) =>
    (await client.send(new GetCommand({ TableName: table, Key: itemKey(batchId, index), ConsistentRead: true }))).Item;

  /** One submitted item: just its entry of its chunk (a projection), not the whole chunk. */
  async function entryOf(batchId: string, index: number): Promise<ItemRecord | undefined> {
    const answer = await client.send(
      new GetCommand({
        TableName: table,
        Key: chunkKey(batchId, chunkFirst(index)),
        ProjectionExpression: `entries[${index % CHUNK_ITEMS}]`,
        ConsistentRead: true,
      }),
    );
    return projectedEntry(answer.Item, batchId, index);
  }

  /** The submitted items (requests: patient data) go 7 days after the batch completes, with it. */
  async function expireChunks(batchId: string, expiresAt: number): Promise<void> {
    const pages = paginateQuery(
      { client },
      {
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :chunk)',
        ExpressionAttributeValues: { ':pk': `BATCH#${batchId}`, ':chunk': 'CHUNK#' },
        ProjectionExpression: 'pk, sk',
      },
    );
    for await (const page of pages) {
      await inParallel(page.Items ?? [], WRITE_CONCURRENCY, async (key) => {
        await update({ Key: { pk: key.pk, sk: key.sk }, UpdateExpression: 'SET expiresAt = :expires', ExpressionAttributeValues: { ':expires': expiresAt } });
      });
    }
  }

  async function writeAll(rows: Record<string, unknown>[]): Promise<void> {
    const chunks: Record<string, unknown>[][] = [];
    for (let i = 0; i < rows.length; i += 25) chunks.push(rows.slice(i, i + 25));
    await inParallel(chunks, WRITE_CONCURRENCY, async (chunk) => {
      await untilProcessed(
        chunk.map((Item) => ({ PutRequest: { Item } })),
        async (requests) => {
          const answer = await client.send(new BatchWriteCommand({ RequestItems: { [table]: requests } }));
          return (answer.UnprocessedItems?.[table] ?? []) as typeof requests;
        },
      );
    });
  }

  return {
    async reserve(clientId, n, max) {
      if (n === 0) return true;
      if (n > max) return false;
      return conditional({
        Key: { pk: `CLIENT#${clientId}`, sk: 'LIMIT' },
        UpdateExpression: 'ADD unfinished :n',
        ConditionExpression: 'attribute_not_exists(unfinished) OR unfinished <= :room',
        ExpressionAttributeValues: { ':n': n, ':room': max - n },
      });
    },
    async release(clientId, n) {
      if (n === 0) return;
      await update({ Key: { pk: `CLIENT#${clientId}`, sk: 'LIMIT' }, UpdateExpression: 'ADD unfinished :n', ExpressionAttributeValues: { ':n': -n } });
    },
    async create(batch, items) {
      const expiresAt = epoch(batch.createdAt, OPEN_TTL_SECONDS);
      const chunks = chunksOf(items);
      const refused = items
        .filter((item) => !answerInline(item))
        .map((item) => ({
          ...itemKey(item.batchId, item.index),
          ...toEntry(item),
          batchId: item.batchId,
          stateKey: stateKey(item.batchId, item.state),
          expiresAt,
        }));
      await writeAll([
        ...chunks.map((entries) => ({
          ...chunkKey(batch.batchId, Number(entries[0]!.index)),
          first: entries[0]!.index,
          ...chunkState(batch.batchId, entries),
          entries,
          expiresAt,
        })),
        ...refused,
      ]);
      const { counts, outcomes, ...rest } = batch;
      await writeAll([{ ...batchKey(batch.batchId), ...rest, ...counts, ...outcomes, expiresAt }]);
    },
    async getBatch(batchId) {
      const row = (await client.send(new GetCommand({ TableName: table, Key: batchKey(batchId), ConsistentRead: true }))).Item;
      return row ? toBatch(row) : undefined;
    },
    async openBatches() {
      const batches: BatchRecord[] = [];
      const pages = paginateScan(
        { client },
        {
          TableName: table,
          FilterExpression: 'sk = :meta AND attribute_not_exists(completedAt)',
          ExpressionAttributeValues: { ':meta': 'META' },
          ConsistentRead: true,
        },
      );
      for await (const page of pages) batches.push(...(page.Items ?? []).map(toBatch));
      return batches;
    },
    listItems(batchId, { afterIndex, limit, state }): Promise<ItemPage> {
      return state ? itemsInState(client, table, batchId, state, afterIndex ?? -1, limit) : allItems(client, table, batchId, afterIndex ?? -1, limit);
    },
    async batchAndSubmitted(batchId, index) {
      // One BatchGetItem for the META row and the chunk entry: a projection naming the batch's fields and `entries[i]`.
      const names = Object.fromEntries(BATCH_FIELDS.map((field, i) => [`#f${i}`, field]));
      const projection = `${Object.keys(names).join(', ')}, entries[${index % CHUNK_ITEMS}]`;
      const rows: Record<string, unknown>[] = [];
      await untilProcessed<Record<string, unknown>>([batchKey(batchId), chunkKey(batchId, chunkFirst(index))], async (keys) => {
        const request = { Keys: keys, ConsistentRead: true, ProjectionExpression: projection, ExpressionAttributeNames: names };
        const answer = await client.send(new BatchGetCommand({ RequestItems: { [table]: request } }));
        rows.push(...(answer.Responses?.[table] ?? []));
        return (answer.UnprocessedKeys?.[table]?.Keys ?? []) as Record<string, unknown>[];
      });
      const meta = rows.find((row) => row.entries === undefined && row.batchId !== undefined);
      const entry = projectedEntry(
        rows.find((row) => row.entries !== undefined),
        batchId,
        index,
      );
      return { ...(meta ? { batch: toBatch(meta) } : {}), ...(entry ? { entry } : {}) };
    },
    async claim(batchId, index, nowMs, leaseMs, known): Promise<Claim> {
      const entry = known ?? (await entryOf(batchId, index));
      if (!entry) return { kind: 'missing' };
      if (entry.state !== 'PENDING') return { kind: 'finished', state: entry.state };
      const leaseUntil = nowMs + leaseMs;
      try {
        const answer = await update({
          Key: itemKey(batchId, index),
          UpdateExpression: `SET #state = :progress, stateKey = :stateKey, leaseUntil = :lease, attemptAt = :now, firstAttemptAt = if_not_exists(firstAttemptAt, :now), ${ROW_FIELDS} ADD attempts :one`,
          ConditionExpression: 'attribute_not_exists(#state) OR #state = :pending',
          ExpressionAttributeNames: { '#state': 'state', '#index': 'index' },
          ExpressionAttributeValues: {
            ':progress': 'IN_PROGRESS',
            ':stateKey': stateKey(batchId, 'IN_PROGRESS'),
            ':pending': 'PENDING',
            ':lease': leaseUntil,
            ':now': nowMs,
            ':one': 1,
            ...rowValues(batchId, entry),
          },
          ReturnValues: 'ALL_NEW',
        });
        const item = toItem(answer.Attributes!);
        // Its first claim: the chunk has one untouched entry less (the state index).
        if (item.attempts === 1) await markTouched(client, table, batchId, index);
        return { kind: 'claimed', item: { ...item, ...(entry.request ? { request: entry.request } : {}) }, fresh: true };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      const row = await getItem(batchId, index);
      if (!row) return { kind: 'missing' };
      const item = toItem(row);
      if (item.state !== 'IN_PROGRESS') return { kind: 'finished', state: item.state };
      if ((item.leaseUntil ?? 0) > nowMs) return { kind: 'busy', leaseUntil: item.leaseUntil ?? nowMs };
      // The worker that held it is gone: take it over with the same attempt (same upstream Idempotency-Key).
      const taken = await conditional({
        Key: itemKey(batchId, index),
        UpdateExpression: 'SET leaseUntil = :lease',
        ConditionExpression: '#state = :progress AND leaseUntil = :old',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':progress': 'IN_PROGRESS', ':lease': leaseUntil, ':old': item.leaseUntil ?? 0 },
      });
      return taken
        ? { kind: 'claimed', item: { ...item, leaseUntil, ...(entry.request ? { request: entry.request } : {}) }, fresh: false }
        : { kind: 'busy', leaseUntil };
    },
    admit(batchId, fresh, at) {
      return conditional({
        Key: batchKey(batchId),
        UpdateExpression: fresh ? 'SET updatedAt = :at, #status = :progress ADD pending :minus, inProgress :one' : 'SET updatedAt = :at',
        ConditionExpression: '#status IN (:pending, :progress)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':at': at, ':pending': 'PENDING', ':progress': 'IN_PROGRESS', ...(fresh ? { ':minus': -1, ':one': 1 } : {}) },
      });
    },
    cancelClaimed(batchId, index, attempts, at) {
      return conditional({
        Key: itemKey(batchId, index),
        UpdateExpression: 'SET #state = :cancelled, stateKey = :stateKey, completedAt = :at REMOVE leaseUntil',
        ConditionExpression: '#state = :progress AND attempts = :attempts',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':cancelled': 'CANCELLED',
          ':stateKey': stateKey(batchId, 'CANCELLED'),
          ':progress': 'IN_PROGRESS',
          ':attempts': attempts,
          ':at': at,
        },
      });
    },
    unclaim(batchId, index, attempts) {
      return conditional({
        Key: itemKey(batchId, index),
        UpdateExpression: 'SET #state = :pending, stateKey = :stateKey REMOVE leaseUntil',
        ConditionExpression: '#state = :progress AND attempts = :attempts',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':pending': 'PENDING', ':stateKey': stateKey(batchId, 'PENDING'), ':progress': 'IN_PROGRESS', ':attempts': attempts },
      });
    },
    finish(batchId, index, attempts, result: ItemResult) {
      return conditional({
        Key: itemKey(batchId, index),
        UpdateExpression:
          'SET #state = :state, stateKey = :stateKey, #status = :status, answer = :answer, completedAt = :at, expiresAt = :expires REMOVE leaseUntil',
        ConditionExpression: '#state = :progress AND attempts = :attempts',
        ExpressionAttributeNames: { '#state': 'state', '#status': 'status' },
        ExpressionAttributeValues: {
          ':state': result.state,
          ':stateKey': stateKey(batchId, result.state),
          ':status': result.status,
          ':answer': result.answer,
          ':at': result.completedAt,
          ':expires': epoch(result.completedAt, TTL_SECONDS + 24 * 3600),
          ':progress': 'IN_PROGRESS',
          ':attempts': attempts,
        },
      });
    },
    async cancelItem(batchId, index, at, known) {
      const entry = known ?? (await entryOf(batchId, index));
      if (entry?.state !== 'PENDING') return false;
      try {
        const answer = await update({
          Key: itemKey(batchId, index),
          UpdateExpression: `SET #state = :cancelled, stateKey = :stateKey, completedAt = :at, attempts = if_not_exists(attempts, :zero), ${ROW_FIELDS}`,
          ConditionExpression: 'attribute_not_exists(#state) OR #state = :pending',
          ExpressionAttributeNames: { '#state': 'state', '#index': 'index' },
          ExpressionAttributeValues: {
            ':cancelled': 'CANCELLED',
            ':stateKey': stateKey(batchId, 'CANCELLED'),
            ':pending': 'PENDING',
            ':at': at,
            ':zero': 0,
            ...rowValues(batchId, entry),
          },
          ReturnValues: 'UPDATED_OLD',
        });
        // No state before: the item's first touch.
        if (answer.Attributes?.state === undefined) await markTouched(client, table, batchId, index);
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
    async bump(batchId, deltas, at) {
      const adds = COUNTERS.filter((name) => deltas[name]);
      const answer = await update({
        Key: batchKey(batchId),
        UpdateExpression: `SET updatedAt = :at${adds.length > 0 ? ` ADD ${adds.map((name) => `#${name} :${name}`).join(', ')}` : ''}`,
        ConditionExpression: 'attribute_exists(pk)',
        ...(adds.length > 0 ? { ExpressionAttributeNames: Object.fromEntries(adds.map((name) => [`#${name}`, name])) } : {}),
        ExpressionAttributeValues: { ':at': at, ...Object.fromEntries(adds.map((name) => [`:${name}`, deltas[name]])) },
        ReturnValues: 'ALL_NEW',
      });
      return toBatch(answer.Attributes!);
    },
    async setStatus(batchId, to, from, at, completed = false) {
      const names = from.map((_, i) => `:from${i}`);
      const moved = await conditional({
        Key: batchKey(batchId),
        UpdateExpression: `SET #status = :to, updatedAt = :at${completed ? ', completedAt = :at, expiresAt = :expires' : ''}`,
        // Finishing happens once: a second worker (or a cancel) that also sees nothing left changes nothing.
        ConditionExpression: `#status IN (${names.join(', ')})${completed ? ' AND attribute_not_exists(completedAt)' : ''}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':to': to,
          ':at': at,
          ...Object.fromEntries(from.map((status, i) => [names[i], status])),
          ...(completed ? { ':expires': epoch(at, TTL_SECONDS) } : {}),
        },
      });
      if (moved && completed) await expireChunks(batchId, epoch(at, TTL_SECONDS));
      return moved;
    },
  };
}
