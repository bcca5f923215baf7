import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { dynamoBatchStore } from '../../lib/batch/adapters/dynamodb.js';
import { sqsItemQueue } from '../../lib/batch/adapters/sqs.js';
import { batchItems, submitBatch, type BatchRouteDeps } from '../../lib/batch/routes.js';
import { DEFAULT_BATCH_SETTINGS } from '../../lib/batch/types.js';
import { fixedClock } from '../../lib/config/clock.js';
import { createBatchTable } from '../../infra/dev/local/batch.js';
import { localDynamoClient, startDynalite, type LocalDynamo } from '../../infra/dev/local/enrollments.js';
import { MOCK_SET_1 } from '../support/events.js';

/**
 * What a submit costs, counted in table rows written (CPU figures are in bench/batch-hostile.ts): a
 * batch's items go in chunks of 100, invalid ones included, so 10,000 items are ~100 writes however
 * many of them are invalid.
 */

let dynamo: LocalDynamo;
let deps: BatchRouteDeps;
let written = 0;
let ids = 0;

beforeAll(async () => {
  dynamo = await startDynalite();
  const table = await createBatchTable(dynamo.endpoint, 'batches');
  const client = localDynamoClient(dynamo.endpoint);
  const send = client.send.bind(client) as (command: unknown) => Promise<unknown>;
  // Every row a command writes: a BatchWriteItem's requests, one per update or put.
  (client as { send: unknown }).send = (command: { constructor: { name: string }; input: Record<string, any> }) => {
    const name = command.constructor.name;
    if (name === 'BatchWriteCommand') written += Object.values(command.input.RequestItems as Record<string, unknown[]>).reduce((n, rows) => n + rows.length, 0);
    else if (name === 'UpdateCommand' || name === 'PutCommand') written += 1;
    return send(command);
  };
  deps = {
    store: dynamoBatchStore(client, table),
    items: { sendItems: async () => undefined, sendFanOuts: async () => undefined },
    webhooks: { sendWebhook: async () => undefined },
    settings: DEFAULT_BATCH_SETTINGS,
    allowLoopbackHttp: false,
    webhookSecretsFor: async () => [],
    clock: fixedClock('2026-11-24T20:00:00Z'),
    newId: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
  };
});
afterAll(async () => dynamo.close());

const submit = async (items: unknown[]) => {
  written = 0;
  const result = await submitBatch(deps, { body: { items }, clientId: 'clinic' });
  if (!result.ok) throw new Error(result.error.code);
  return { body: result.value.body, written };
};

describe('a 10,000-item submit', () => {
  it('makes ten queue sends, not a thousand: one message per 100 items, which a worker sends on', async () => {
    const bodies: string[] = [];
    let sends = 0;
    const client = {
      send: async (command: { input: { Entries: { MessageBody: string }[] } }) => {
        sends++;
        bodies.push(...command.input.Entries.map((entry) => entry.MessageBody));
        return { Failed: [] };
      },
    } as unknown as SQSClient;
    const result = await submitBatch(
      { ...deps, items: sqsItemQueue(client, 'http://127.0.0.1/000000000000/items') },
      { body: { items: Array.from({ length: 10_000 }, () => MOCK_SET_1) }, clientId: 'clinic' },
    );
    expect(result.ok).toBe(true);
    expect(sends).toBe(10);
    const indexes = bodies.flatMap((body) => (JSON.parse(body) as { indexes: number[] }).indexes);
    expect(indexes).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
  });

  it('writes its valid items in ~100 rows', async () => {
    const { body, written } = await submit(Array.from({ length: 10_000 }, (_, i) => ({ ...MOCK_SET_1, clientRef: `r${i}` })));
    expect(body).toMatchObject({ totalCount: 10_000, invalidCount: 0 });
    expect(written).toBeLessThanOrEqual(110);
  });

  it('stores 10,000 empty items as invalid items in ~100 rows, each with the real-time 400', async () => {
    const { body, written } = await submit(Array.from({ length: 10_000 }, () => ({})));
    expect(body).toMatchObject({ status: 'COMPLETED_WITH_ERRORS', totalCount: 10_000, invalidCount: 10_000 });
    // The chunks, the batch row, the final status and the chunks' expiry once it is complete.
    expect(written).toBeLessThanOrEqual(220);
    const page = await batchItems(deps, 'clinic', body.batchId as string, { pageSize: '2', pageToken: Buffer.from('i:9997').toString('base64url') });
    expect(page).toMatchObject({
      ok: true,
      body: {
        items: [
          { index: 9998, state: 'FAILED', status: 400, error: { code: 'INVALID_REQUEST' } },
          { index: 9999, state: 'FAILED', status: 400 },
        ],
      },
    });
  });
});
