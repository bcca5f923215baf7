import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { SQSClient } from '@aws-sdk/client-sqs';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localDynamoClient } from '../../infra/dev/local/enrollments.js';
import { dynamoBatchStore } from '../../lib/batch/adapters/dynamodb.js';
import { sqsItemQueue } from '../../lib/batch/adapters/sqs.js';
import type { ItemMessage } from '../../lib/batch/types.js';

/**
 * The back-off between resends of what AWS left undone (docs/batch.md#engine), on a fake sleep: a
 * loopback server speaks just enough of DynamoDB's and SQS's JSON protocols to leave keys unprocessed
 * and refuse entries, and the waits the store and the queue ask for are recorded, never slept.
 */

type Answer = (body: Record<string, any>) => unknown;

let server: Server;
let endpoint: string;
/** What the server answers next, per X-Amz-Target; the last answer repeats. */
let answers: Record<string, Answer[]> = {};
let seen: { target: string; body: Record<string, any> }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target']);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
      seen.push({ target, body });
      const queue = answers[target] ?? [];
      const answer = (queue.length > 1 ? queue.shift() : queue[0]) ?? (() => ({}));
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify(answer(body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  answers = {};
  seen = [];
});

/** A sleep that records the wait and returns at once. */
function fakeSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number): Promise<void> => void waits.push(ms) };
}

describe('the DynamoDB store resends unprocessed keys', () => {
  const TARGET = 'DynamoDB_20120810.BatchGetItem';
  const unprocessed: Answer = (body) => ({ Responses: {}, UnprocessedKeys: body.RequestItems });
  const processed: Answer = () => ({ Responses: { batches: [] }, UnprocessedKeys: {} });

  it('backs off 50 ms doubling to at most 1 s until nothing is left, on the sleep it was given', async () => {
    answers[TARGET] = [...Array.from({ length: 7 }, () => unprocessed), processed];
    const { waits, sleep } = fakeSleep();
    const client = localDynamoClient(endpoint);
    try {
      expect(await dynamoBatchStore(client, 'batches', sleep).batchAndSubmitted('b1', 3)).toEqual({});
    } finally {
      client.destroy();
    }
    expect(waits).toEqual([50, 100, 200, 400, 800, 1_000, 1_000]);
    expect(seen).toHaveLength(8);
    expect(new Set(seen.map(({ body }) => JSON.stringify(body.RequestItems.batches.Keys))).size).toBe(1);
  });
});

describe('the SQS item queue resends refused entries', () => {
  const TARGET = 'AmazonSQS.SendMessageBatch';
  const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');
  /** Accepts the entries except those with the ids given. */
  const refusing =
    (...ids: string[]): Answer =>
    (body) => ({
      Successful: (body.Entries as { Id: string; MessageBody: string }[])
        .filter((entry) => !ids.includes(entry.Id))
        .map((entry) => ({ Id: entry.Id, MessageId: `m-${entry.Id}`, MD5OfMessageBody: md5(entry.MessageBody) })),
      Failed: ids
        .filter((id) => (body.Entries as { Id: string }[]).some((entry) => entry.Id === id))
        .map((Id) => ({ Id, SenderFault: false, Code: 'InternalError' })),
    });
  const messages: ItemMessage[] = [0, 1, 2].map((index) => ({ batchId: 'b1', index }));

  const queue = (sleep: (ms: number) => Promise<void>) => {
    const client = new SQSClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    return { client, items: sqsItemQueue(client, `${endpoint}/000000000000/items`, sleep) };
  };

  it('sends only the refused entries again, after 100 ms', async () => {
    answers[TARGET] = [refusing('1'), refusing()];
    const { waits, sleep } = fakeSleep();
    const { client, items } = queue(sleep);
    try {
      await items.sendItems('client-a', messages);
    } finally {
      client.destroy();
    }
    expect(waits).toEqual([100]);
    expect(seen.map(({ body }) => body.Entries.map((entry: { Id: string }) => entry.Id))).toEqual([['0', '1', '2'], ['1']]);
  });

  it('gives up after five resends (100 ms doubling), failing the send', async () => {
    answers[TARGET] = [refusing('0', '1', '2')];
    const { waits, sleep } = fakeSleep();
    const { client, items } = queue(sleep);
    try {
      await expect(items.sendItems('client-a', messages)).rejects.toThrow('the item queue kept refusing messages');
    } finally {
      client.destroy();
    }
    expect(waits).toEqual([100, 200, 400, 800, 1_600]);
    expect(seen).toHaveLength(6);
  });
});
