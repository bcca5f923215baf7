import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { dynamoBatchStore } from '../../lib/batch/adapters/dynamodb.js';
import type { BatchStore } from '../../lib/batch/store.js';
import { emptyCounts, emptyOutcomes, ITEM_STATES, type ItemRecord, type ItemState } from '../../lib/batch/types.js';
import { createBatchTable } from '../../infra/dev/local/batch.js';
import { localDynamoClient, startDynalite, type LocalDynamo } from '../../infra/dev/local/enrollments.js';

/**
 * `?state=` reads the items in that state, not the batch (the table's state index): counted in items
 * the store reads (a chunk row counts each of its entries), never timed. CPU figures: bench/batch-hostile.ts.
 */

const BATCH_ID = '00000000-0000-4000-8000-00000000c0de';
const COUNT = 600;
const AT = '2026-11-24T20:00:00.000Z';
const NOW = Date.parse(AT);
const LEASE = 90_000;

let dynamo: LocalDynamo;
let store: BatchStore;
let read = 0;

/** Items a store answer carries: each ITEM row, each entry of a chunk row. */
const itemsIn = (rows: Record<string, unknown>[] = []) => rows.reduce((n, row) => n + (Array.isArray(row.entries) ? row.entries.length : 1), 0);

beforeAll(async () => {
  dynamo = await startDynalite();
  const table = await createBatchTable(dynamo.endpoint, 'batches');
  const client = localDynamoClient(dynamo.endpoint);
  const send = client.send.bind(client) as (command: unknown) => Promise<Record<string, any>>;
  (client as { send: unknown }).send = async (command: unknown) => {
    const answer = await send(command);
    read += itemsIn(answer.Items) + (answer.Item ? itemsIn([answer.Item]) : 0);
    for (const rows of Object.values((answer.Responses ?? {}) as Record<string, Record<string, unknown>[]>)) read += itemsIn(rows);
    return answer;
  };
  store = dynamoBatchStore(client, table);
  const items: ItemRecord[] = Array.from({ length: COUNT }, (_, index) =>
    index < 10
      ? { batchId: BATCH_ID, index, state: 'FAILED', attempts: 0, counted: false, status: 400, answer: '{"code":"INVALID_REQUEST"}', completedAt: AT }
      : { batchId: BATCH_ID, index, state: 'PENDING', attempts: 0, counted: true, request: { payerId: 'P' } },
  );
  await store.create(
    {
      batchId: BATCH_ID,
      clientId: 'c',
      status: 'IN_PROGRESS',
      totalCount: COUNT,
      invalidCount: 10,
      counts: emptyCounts(),
      outcomes: emptyOutcomes(),
      createdAt: AT,
      updatedAt: AT,
    },
    items,
  );
  const claim = async (index: number) => {
    const claimed = await store.claim(BATCH_ID, index, NOW, LEASE);
    if (claimed.kind !== 'claimed') throw new Error(`item ${index} not claimed`);
    return claimed.item;
  };
  const finish = async (index: number, state: 'COMPLETED' | 'FAILED') => {
    const item = await claim(index);
    await store.finish(BATCH_ID, index, item.attempts, { state, status: state === 'COMPLETED' ? 200 : 503, answer: '{}', completedAt: AT });
  };
  const run = async (indexes: number[], step: (index: number) => Promise<unknown>) => {
    for (let i = 0; i < indexes.length; i += 16) await Promise.all(indexes.slice(i, i + 16).map(step));
  };
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
  await run([...range(10, 300), ...range(305, 580)], (index) => finish(index, 'COMPLETED'));
  await run(range(300, 305), (index) => finish(index, 'FAILED'));
  await run(range(580, 585), async (index) => store.unclaim(BATCH_ID, index, (await claim(index)).attempts));
  await run(range(585, 590), claim);
  await run(range(590, 595), (index) => store.cancelItem(BATCH_ID, index, AT));
  // 595–599 stay as submitted.
}, 120_000);
afterAll(async () => dynamo.close());

/** Every page of one state, `pageSize` at a time. */
async function allInState(state: ItemState, pageSize: number): Promise<number[]> {
  const indexes: number[] = [];
  let afterIndex: number | undefined;
  do {
    const page = await store.listItems(BATCH_ID, { limit: pageSize, state, ...(afterIndex === undefined ? {} : { afterIndex }) });
    for (const item of page.items) expect(item.state).toBe(state);
    indexes.push(...page.items.map((item) => item.index));
    afterIndex = page.lastIndex;
  } while (afterIndex !== undefined);
  return indexes;
}

describe('items by state', () => {
  it('lists for each state exactly the items the whole listing has in it, in index order', async () => {
    const whole = await store.listItems(BATCH_ID, { limit: COUNT });
    for (const state of ITEM_STATES) {
      const expected = whole.items.filter((item) => item.state === state).map((item) => item.index);
      expect([state, await allInState(state, 7)]).toEqual([state, expected]);
    }
    expect(await allInState('PENDING', 100)).toEqual([580, 581, 582, 583, 584, 595, 596, 597, 598, 599]);
  });

  it('reads at most one chunk’s worth of items for a one-item page, not the batch', async () => {
    for (const state of ['PENDING', 'IN_PROGRESS', 'CANCELLED'] as const) {
      read = 0;
      const page = await store.listItems(BATCH_ID, { limit: 1, state });
      expect(page.items).toHaveLength(1);
      expect([state, read]).toEqual([state, expect.any(Number)]);
      expect(read).toBeLessThanOrEqual(210);
    }
  });
});
