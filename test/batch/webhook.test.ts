import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { checkCallbackUrl, safeAddress } from '../../lib/batch/callback-url.js';
import { dynamoBatchStore } from '../../lib/batch/adapters/dynamodb.js';
import type { BatchStore } from '../../lib/batch/store.js';
import { emptyOutcomes, type BatchRecord } from '../../lib/batch/types.js';
import { sendBatchWebhook, type WebhookDeps } from '../../lib/batch/webhook.js';
import { fixedClock, systemClock } from '../../lib/config/index.js';
import { createBatchTable } from '../../infra/dev/local/batch.js';
import { localDynamoClient, startDynalite, type LocalDynamo } from '../../infra/dev/local/enrollments.js';
import { listen } from '../../infra/dev/listen.js';

/**
 * The batch webhook (docs/batch.md#webhook): Standard Webhooks signatures the package's own verify
 * accepts, retries at 1 min, 5 min, 30 min, 2 h and 8 h then given up, and destinations checked when
 * sent (a name resolving to a private, loopback, link-local or metadata address gets nothing).
 */

const SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
let dynamo: LocalDynamo;
let store: BatchStore;
let receiver: Server;
let port: number;
let answer = 204;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

async function finishedBatch(batchId: string, callbackUrl: string): Promise<void> {
  const batch: BatchRecord = {
    batchId,
    clientId: 'clinic',
    callbackUrl,
    status: 'COMPLETED',
    totalCount: 2,
    invalidCount: 0,
    counts: { pending: 0, inProgress: 0, completed: 2, failed: 0, cancelled: 0 },
    outcomes: emptyOutcomes(),
    createdAt: '2026-11-24T20:00:00.000Z',
    updatedAt: '2026-11-24T20:01:00.000Z',
    completedAt: '2026-11-24T20:01:00.000Z',
  };
  await store.create(batch, []);
}
const deps = (over: Partial<WebhookDeps> = {}): WebhookDeps => ({
  store,
  secretsFor: async (clientId) => (clientId === 'clinic' ? [SECRET] : []),
  lookup: async () => [{ address: '127.0.0.1', family: 4 }],
  allowLoopback: true,
  clock: fixedClock('2026-11-24T20:02:00Z'),
  ...over,
});

beforeAll(async () => {
  dynamo = await startDynalite();
  store = dynamoBatchStore(localDynamoClient(dynamo.endpoint), await createBatchTable(dynamo.endpoint, 'batches'));
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answer).end();
    });
  });
  port = Number(new URL(await listen(receiver, { port: 0, host: '127.0.0.1' })).port);
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await dynamo.close();
});

describe('the batch webhook', () => {
  it('signs per Standard Webhooks (verified by the package itself) with ids, status and counts only', async () => {
    await finishedBatch('b-1', `http://127.0.0.1:${port}/hook`);
    answer = 204;
    received.length = 0;
    expect(await sendBatchWebhook(deps(), 'b-1', 1)).toEqual({ kind: 'done' });
    const [delivery] = received;
    expect(delivery!.headers['webhook-id']).toBe('msg_b-1');
    expect(delivery!.headers['webhook-timestamp']).toBe(String(Date.parse('2026-11-24T20:02:00Z') / 1000));
    const payload = JSON.parse(delivery!.body);
    expect(payload).toEqual({
      type: 'eligibility.batch.completed',
      timestamp: '2026-11-24T20:02:00.000Z',
      data: { batchId: 'b-1', status: 'COMPLETED', counts: { pending: 0, inProgress: 0, completed: 2, failed: 0, cancelled: 0 } },
    });
    // verify checks the timestamp against its own clock (5 min tolerance): sign one for now the same way.
    const fresh = await sendBatchWebhook(deps({ clock: systemClock }), 'b-1', 1);
    expect(fresh).toEqual({ kind: 'done' });
    expect(new Webhook(SECRET).verify(received[1]!.body, received[1]!.headers as Record<string, string>)).toMatchObject({ data: { batchId: 'b-1' } });
  });

  it('retries a receiver that fails at 1 min, 5 min, 30 min, 2 h and 8 h, then gives up', async () => {
    await finishedBatch('b-2', `http://127.0.0.1:${port}/hook`);
    answer = 500;
    const decisions = [];
    for (let attempt = 1; attempt <= 6; attempt++) decisions.push(await sendBatchWebhook(deps(), 'b-2', attempt));
    // The schedule docs/batch.md#webhook states: 1 min, 5 min, 30 min, 2 h and 8 h.
    const retrySeconds = [60, 300, 1800, 7200, 28800];
    expect(decisions).toEqual([...retrySeconds.map((seconds) => ({ kind: 'retry', seconds })), { kind: 'done' }]);
  });

  it('never connects to a name that resolves to a private, loopback (in AWS), link-local or metadata address', async () => {
    await finishedBatch('b-3', 'https://hooks.clinic.example/batch');
    const posted: string[] = [];
    const post: WebhookDeps['post'] = async (_url, address) => {
      posted.push(address);
      return 204;
    };
    for (const address of ['10.1.2.3', '169.254.169.254', '127.0.0.1', '192.168.0.9', 'fd00:ec2::254', '::ffff:10.0.0.1']) {
      const decision = await sendBatchWebhook(
        deps({
          allowLoopback: false,
          post,
          lookup: async () => [
            { address: '93.184.216.34', family: 4 },
            { address, family: address.includes(':') ? 6 : 4 },
          ],
        }),
        'b-3',
        1,
      );
      expect(decision).toEqual({ kind: 'retry', seconds: 60 });
    }
    expect(posted).toEqual([]);
    expect(await sendBatchWebhook(deps({ allowLoopback: false, post, lookup: async () => [{ address: '93.184.216.34', family: 4 }] }), 'b-3', 1)).toEqual({
      kind: 'done',
    });
    expect(posted).toEqual(['93.184.216.34']);
  });

  it('checks callback URLs as given and addresses as resolved', async () => {
    expect(checkCallbackUrl('https://hooks.clinic.example/x', { allowLoopbackHttp: false })).toBeUndefined();
    expect(checkCallbackUrl('http://hooks.clinic.example/x', { allowLoopbackHttp: false })).toBe('must be an https URL');
    expect(checkCallbackUrl('http://127.0.0.1:8080/x', { allowLoopbackHttp: false })).toBe('must be an https URL');
    expect(checkCallbackUrl('http://127.0.0.1:8080/x', { allowLoopbackHttp: true })).toBeUndefined();
    expect(checkCallbackUrl('https://user:pw@hooks.example/x', { allowLoopbackHttp: false })).toBe('must not carry a user name or password');
    // What the name resolves to decides (no loopback in AWS): one reserved address refuses it, a public one is the address used.
    const resolvedTo = (address: string) =>
      safeAddress(new URL('https://hooks.clinic.example/x'), async () => [{ address, family: address.includes(':') ? 6 : 4 }], { allowLoopback: false });
    const blocked = { ok: false, reason: 'the callback host resolves to a private or reserved address' };
    for (const address of ['169.254.169.254', '100.64.1.1', '0.0.0.0', 'fe80::1', '::1', 'not-an-ip']) expect(await resolvedTo(address)).toEqual(blocked);
    for (const address of ['93.184.216.34', '2606:4700::1111']) expect(await resolvedTo(address)).toEqual({ ok: true, address });
    expect(await safeAddress(new URL('https://[::1]/x'), async () => [], { allowLoopback: false })).toEqual({
      ok: false,
      reason: 'the callback host resolves to a private or reserved address',
    });
    expect(
      await safeAddress(
        new URL('https://nowhere.example/x'),
        async () => {
          throw new Error('ENOTFOUND');
        },
        { allowLoopback: false },
      ),
    ).toEqual({ ok: false, reason: 'the callback host does not resolve' });
  });
});
