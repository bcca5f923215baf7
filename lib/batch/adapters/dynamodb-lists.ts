import { paginateQuery, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ItemPage } from '../store.js';
import type { ItemRecord, ItemState } from '../types.js';
import { chunkFirst, chunkKey, chunkSk, itemSk, stateKey, STATE_INDEX, toItem } from './dynamodb-rows.js';

/**
 * Listing a batch's items (docs/batch.md#poll): all of them in index order (each chunk's entries, as
 * overridden by the ITEM rows of the items touched since), or those in one state.
 *
 * Items by state go through the table's `byState` index, so `?state=` reads the items in that state
 * and not the whole batch. The index's partition is `stateKey`
 * (`<batchId>#<state>`), its sort key `index`:
 *   - an ITEM row (an item a worker or a cancel touched) is in its state's partition, moved by every
 *     state write;
 *   - a CHUNK row (up to 100 items as submitted) is in the PENDING partition while any of its pending
 *     entries is untouched (`untouched`, counted down at each entry's first touch), then in the FAILED
 *     partition if it holds invalid items (`invalid`), else in none.
 * A FAILED query also reads the chunks still in the PENDING partition that hold invalid items.
 */

type Row = Record<string, unknown>;
type RowsSource = () => AsyncGenerator<Row>;

/** Index rows read a few at a time (1, 2, 4 … 64 per call): a one-item page reads one row. */
const MAX_ROWS_PER_READ = 64;

const isChunk = (row: Row): boolean => String(row.sk).startsWith('CHUNK#');

function partitionRows(client: DynamoDBDocumentClient, table: string, batchId: string, state: ItemState, afterIndex: number, invalidOnly = false): RowsSource {
  return async function* () {
    let start: Record<string, unknown> | undefined;
    let size = 1;
    do {
      const answer = await client.send(
        new QueryCommand({
          TableName: table,
          IndexName: STATE_INDEX,
          KeyConditionExpression: 'stateKey = :key AND #index > :after',
          ExpressionAttributeNames: { '#index': 'index' },
          ExpressionAttributeValues: { ':key': stateKey(batchId, state), ':after': afterIndex, ...(invalidOnly ? { ':zero': 0 } : {}) },
          ...(invalidOnly ? { FilterExpression: 'invalid > :zero' } : {}),
          Limit: size,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const row of answer.Items ?? []) yield row;
      start = answer.LastEvaluatedKey;
      size = Math.min(MAX_ROWS_PER_READ, size * 2);
    } while (start);
  };
}

/** Two index-ordered row sources as one (a chunk before an item row of the same index). */
async function* merged(a: AsyncGenerator<Row>, b: AsyncGenerator<Row>): AsyncGenerator<Row> {
  const order = (row: Row) => Number(row.index) * 2 + (isChunk(row) ? 0 : 1);
  let [x, y] = await Promise.all([a.next(), b.next()]);
  while (!x.done || !y.done) {
    if (y.done || (!x.done && order(x.value) <= order(y.value))) {
      yield x.value as Row;
      x = await a.next();
    } else {
      yield y.value;
      y = await b.next();
    }
  }
}

/** The chunk whose first index is the greatest at or below `index` (entries parsed), if any. */
async function chunkHolding(client: DynamoDBDocumentClient, table: string, batchId: string, index: number): Promise<{ entries: ItemRecord[] } | undefined> {
  const answer = await client.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': `BATCH#${batchId}`, ':from': 'CHUNK#', ':to': chunkSk(index) },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const row = answer.Items?.[0];
  if (!row) return undefined;
  const entries = (row.entries as Record<string, unknown>[]).map((entry) => toItem({ ...entry, batchId }));
  return entries[entries.length - 1]!.index >= index ? { entries } : undefined;
}

/** The ITEM rows from `from` to `to` by index. */
async function rowsBetween(client: DynamoDBDocumentClient, table: string, batchId: string, from: number, to: number): Promise<Map<number, ItemRecord>> {
  const rows = new Map<number, ItemRecord>();
  const pages = paginateQuery(
    { client },
    {
      TableName: table,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': `BATCH#${batchId}`, ':from': itemSk(from), ':to': itemSk(to) },
      ConsistentRead: true,
    },
  );
  for await (const page of pages) {
    for (const row of page.Items ?? []) {
      const item = toItem(row);
      rows.set(item.index, item);
    }
  }
  return rows;
}

/** Every item after `afterIndex`, in index order, at most `limit`; `lastIndex` when more may follow. */
export async function allItems(client: DynamoDBDocumentClient, table: string, batchId: string, afterIndex: number, limit: number): Promise<ItemPage> {
  const items: ItemRecord[] = [];
  let next = afterIndex + 1;
  for (;;) {
    const chunk = await chunkHolding(client, table, batchId, next);
    if (!chunk) return { items };
    const entries = chunk.entries.filter((entry) => entry.index >= next);
    const last = chunk.entries[chunk.entries.length - 1]!.index;
    const touched = await rowsBetween(client, table, batchId, next, last);
    for (const entry of entries) {
      items.push(touched.get(entry.index) ?? entry);
      if (items.length >= limit)
        return entry.index < last || (await chunkHolding(client, table, batchId, last + 1)) ? { items, lastIndex: entry.index } : { items };
    }
    next = last + 1;
  }
}

/** Items in `state` after `afterIndex`, in index order, at most `limit`; `lastIndex` when the page is full. */
export async function itemsInState(
  client: DynamoDBDocumentClient,
  table: string,
  batchId: string,
  state: ItemState,
  afterIndex: number,
  limit: number,
): Promise<ItemPage> {
  // From the chunk that holds the next index: its row sorts by its first index.
  const from = chunkFirst(afterIndex + 1) - 1;
  const own = partitionRows(client, table, batchId, state, from)();
  const rows = state === 'FAILED' ? merged(own, partitionRows(client, table, batchId, 'PENDING', from, true)()) : own;
  const items: ItemRecord[] = [];
  let covered = afterIndex;
  for await (const row of rows) {
    let found: ItemRecord[];
    if (isChunk(row)) {
      const entries = (row.entries as Row[]).map((entry) => toItem({ ...entry, batchId })).filter((entry) => entry.index > covered);
      if (entries.length === 0) continue;
      const last = entries[entries.length - 1]!.index;
      const touched = await rowsBetween(client, table, batchId, entries[0]!.index, last);
      found = entries.map((entry) => touched.get(entry.index) ?? entry).filter((item) => item.state === state);
      covered = last;
    } else {
      const item = toItem(row);
      if (item.index <= covered || item.state !== state) continue;
      found = [item];
      covered = item.index;
    }
    for (const item of found) {
      items.push(item);
      if (items.length >= limit) return { items, lastIndex: item.index };
    }
  }
  return { items };
}

/**
 * An item's first touch (its first claim, or its cancel) counts its chunk's untouched entries down;
 * the last one takes the chunk out of the PENDING partition (into FAILED when it holds invalid items).
 */
export async function markTouched(client: DynamoDBDocumentClient, table: string, batchId: string, index: number): Promise<void> {
  const key = chunkKey(batchId, chunkFirst(index));
  const answer = await client.send(
    new UpdateCommand({
      TableName: table,
      Key: key,
      UpdateExpression: 'ADD untouched :minus, invalid :zero',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  if (Number(answer.Attributes?.untouched) > 0) return;
  const invalid = Number(answer.Attributes?.invalid ?? 0) > 0;
  await client.send(
    new UpdateCommand({
      TableName: table,
      Key: key,
      UpdateExpression: invalid ? 'SET stateKey = :failed' : 'REMOVE stateKey',
      ConditionExpression: 'untouched <= :zero',
      ExpressionAttributeValues: { ':zero': 0, ...(invalid ? { ':failed': stateKey(batchId, 'FAILED') } : {}) },
    }),
  );
}
