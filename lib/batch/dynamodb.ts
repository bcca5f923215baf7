import { BatchWriteCommand, GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BatchStore, Claim, Counter, ItemPage, ItemResult } from './store.js';
import { emptyCounts, emptyOutcomes, type BatchRecord, type BatchStatus, type ItemRecord, type ItemState } from './types.js';

/**
 * The batch store in one DynamoDB table (docs/batch.md#engine): partition key `pk`, sort key `sk`.
 *   BATCH#<id> / META          the batch, its counters (atomic adds) and status
 *   BATCH#<id> / ITEM#<index>  one item (request, state, answer); index zero-padded so items sort
 *   CLIENT#<id> / LIMIT        the client's unfinished items (the BATCH_MAX_PENDING_ITEMS gate)
 * `expiresAt` (epoch seconds) is the table's TTL attribute: 7 days after completion.
 */

const TTL_SECONDS = 7 * 24 * 3600;
/** Until a batch completes, its rows carry a far expiry so nothing lingers forever if it never does. */
const OPEN_TTL_SECONDS = 30 * 24 * 3600;
const WRITE_CONCURRENCY = 8;
const COUNTERS: Counter[] = ['pending', 'inProgress', 'completed', 'failed', 'cancelled', 'active', 'inactive', 'unknown'];

const batchKey = (batchId: string) => ({ pk: `BATCH#${batchId}`, sk: 'META' });
const itemSk = (index: number) => `ITEM#${String(index).padStart(6, '0')}`;
const itemKey = (batchId: string, index: number) => ({ pk: `BATCH#${batchId}`, sk: itemSk(index) });
const epoch = (iso: string, plus: number) => Math.floor(Date.parse(iso) / 1000) + plus;

const isConditionFailure = (error: unknown) => (error as { name?: string } | undefined)?.name === 'ConditionalCheckFailedException';

function toBatch(row: Record<string, unknown>): BatchRecord {
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

function toItem(row: Record<string, unknown>): ItemRecord {
  const { pk: _pk, sk: _sk, expiresAt: _expires, ...rest } = row;
  return rest as unknown as ItemRecord;
}

async function inParallel<T>(work: T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, work.length) }, async () => {
    while (next < work.length) await run(work[next++]!);
  });
  await Promise.all(lanes);
}

export function dynamoBatchStore(client: DynamoDBDocumentClient, table: string): BatchStore {
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

  async function writeAll(rows: Record<string, unknown>[]): Promise<void> {
    const chunks: Record<string, unknown>[][] = [];
    for (let i = 0; i < rows.length; i += 25) chunks.push(rows.slice(i, i + 25));
    await inParallel(chunks, WRITE_CONCURRENCY, async (chunk) => {
      let requests = chunk.map((Item) => ({ PutRequest: { Item } }));
      for (let round = 0; requests.length > 0; round++) {
        if (round > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** round)));
        const answer = await client.send(new BatchWriteCommand({ RequestItems: { [table]: requests } }));
        requests = (answer.UnprocessedItems?.[table] ?? []) as typeof requests;
      }
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
      await writeAll(items.map((item) => ({ ...itemKey(batch.batchId, item.index), ...item, expiresAt })));
      const { counts, outcomes, ...rest } = batch;
      await writeAll([{ ...batchKey(batch.batchId), ...rest, ...counts, ...outcomes, expiresAt }]);
    },
    async getBatch(batchId) {
      const row = (await client.send(new GetCommand({ TableName: table, Key: batchKey(batchId), ConsistentRead: true }))).Item;
      return row ? toBatch(row) : undefined;
    },
    async listItems(batchId, { afterIndex, limit, state }): Promise<ItemPage> {
      const items: ItemRecord[] = [];
      let start: Record<string, unknown> | undefined = afterIndex === undefined ? undefined : itemKey(batchId, afterIndex);
      for (;;) {
        const answer = await client.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :item)',
            ExpressionAttributeValues: { ':pk': `BATCH#${batchId}`, ':item': 'ITEM#', ...(state ? { ':state': state } : {}) },
            ...(state ? { FilterExpression: '#state = :state', ExpressionAttributeNames: { '#state': 'state' } } : {}),
            ...(start ? { ExclusiveStartKey: start } : {}),
            Limit: limit - items.length,
            ConsistentRead: true,
          }),
        );
        items.push(...(answer.Items ?? []).map(toItem));
        start = answer.LastEvaluatedKey;
        if (!start) return { items };
        if (items.length >= limit) return { items, lastIndex: items[items.length - 1]!.index };
      }
    },
    async claim(batchId, index, nowMs, leaseMs): Promise<Claim> {
      const leaseUntil = nowMs + leaseMs;
      try {
        const answer = await update({
          Key: itemKey(batchId, index),
          UpdateExpression: 'SET #state = :progress, leaseUntil = :lease, firstAttemptAt = if_not_exists(firstAttemptAt, :now) ADD attempts :one',
          ConditionExpression: '#state = :pending',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':progress': 'IN_PROGRESS', ':pending': 'PENDING', ':lease': leaseUntil, ':now': nowMs, ':one': 1 },
          ReturnValues: 'ALL_NEW',
        });
        return { kind: 'claimed', item: toItem(answer.Attributes!), fresh: true };
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
      return taken ? { kind: 'claimed', item: { ...item, leaseUntil }, fresh: false } : { kind: 'busy', leaseUntil };
    },
    unclaim(batchId, index, attempts) {
      return conditional({
        Key: itemKey(batchId, index),
        UpdateExpression: 'SET #state = :pending REMOVE leaseUntil',
        ConditionExpression: '#state = :progress AND attempts = :attempts',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':pending': 'PENDING', ':progress': 'IN_PROGRESS', ':attempts': attempts },
      });
    },
    finish(batchId, index, attempts, result: ItemResult) {
      return conditional({
        Key: itemKey(batchId, index),
        UpdateExpression: 'SET #state = :state, #status = :status, answer = :answer, completedAt = :at, expiresAt = :expires REMOVE leaseUntil, #request',
        ConditionExpression: '#state = :progress AND attempts = :attempts',
        ExpressionAttributeNames: { '#state': 'state', '#status': 'status', '#request': 'request' },
        ExpressionAttributeValues: {
          ':state': result.state, ':status': result.status, ':answer': result.answer, ':at': result.completedAt,
          ':expires': epoch(result.completedAt, TTL_SECONDS + 24 * 3600), ':progress': 'IN_PROGRESS', ':attempts': attempts,
        },
      });
    },
    cancelItem(batchId, index, at) {
      return conditional({
        Key: itemKey(batchId, index),
        UpdateExpression: 'SET #state = :cancelled, completedAt = :at REMOVE #request',
        ConditionExpression: '#state = :pending',
        ExpressionAttributeNames: { '#state': 'state', '#request': 'request' },
        ExpressionAttributeValues: { ':cancelled': 'CANCELLED', ':pending': 'PENDING', ':at': at },
      });
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
    setStatus(batchId, to, from, at, completed = false) {
      const names = from.map((_, i) => `:from${i}`);
      return conditional({
        Key: batchKey(batchId),
        UpdateExpression: `SET #status = :to, updatedAt = :at${completed ? ', completedAt = :at, expiresAt = :expires' : ''}`,
        ConditionExpression: `#status IN (${names.join(', ')})`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':to': to, ':at': at, ...Object.fromEntries(from.map((status, i) => [names[i], status])), ...(completed ? { ':expires': epoch(at, TTL_SECONDS) } : {}) },
      });
    },
  };
}

export type { ItemState };
