import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SQSEvent } from 'aws-lambda';
import { emptyOutcomes, type BatchRecord } from '../../lib/batch/types.js';
import { webhookHandler } from '../../lib/batch/adapters/webhook-handler.js';
import type { WebhookDeps } from '../../lib/batch/webhook.js';
import { fixedClock } from '../../lib/config/index.js';
import { listen } from '../../infra/dev/listen.js';

/**
 * A webhook delivery has a total deadline (docs/batch.md#webhook), not an idle timeout: a receiver that
 * answers its headers at once and then drips one byte now and then is cut when the deadline passes, and
 * the delivery counts as failed (retried later). The deadline is shortened here (200 ms against a drip
 * every 50 ms); what is asserted is what happened (the cut, the retry), never how long it took.
 */

const SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const DRIPS = 100;
let receiver: Server;
let url: string;
/** Per connection: how many bytes were dripped, and (once closed) whether the sender hung up before the answer ended. */
const connections: { dripped: number; closed: Promise<{ cutBySender: boolean }> }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let closed!: (how: { cutBySender: boolean }) => void;
    const seen = { dripped: 0, closed: new Promise<{ cutBySender: boolean }>((resolve) => (closed = resolve)) };
    connections.push(seen);
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.flushHeaders();
    const timer = setInterval(() => {
      if (seen.dripped === DRIPS) {
        clearInterval(timer);
        res.end();
        return;
      }
      seen.dripped++;
      res.write('.');
    }, 50);
    res.on('close', () => {
      clearInterval(timer);
      closed({ cutBySender: !res.writableFinished });
    });
  });
  url = `${await listen(receiver, { port: 0, host: '127.0.0.1' })}/hook`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

const batch = (batchId: string): BatchRecord => ({
  batchId,
  clientId: 'clinic',
  callbackUrl: url,
  status: 'COMPLETED',
  totalCount: 1,
  invalidCount: 0,
  counts: { pending: 0, inProgress: 0, completed: 1, failed: 0, cancelled: 0 },
  outcomes: emptyOutcomes(),
  createdAt: '2026-11-24T20:00:00.000Z',
  updatedAt: '2026-11-24T20:01:00.000Z',
  completedAt: '2026-11-24T20:01:00.000Z',
});

const record = (batchId: string) =>
  ({
    messageId: `m-${batchId}`,
    receiptHandle: `r-${batchId}`,
    body: JSON.stringify({ batchId }),
    attributes: { ApproximateReceiveCount: '1' },
  }) as unknown as SQSEvent['Records'][number];

describe('the webhook deadline', () => {
  it('cuts a receiver that answers headers and then drips, and reports the delivery failed for a retry', async () => {
    const delayed: [string, number][] = [];
    const deps: WebhookDeps = {
      store: { getBatch: async (batchId) => batch(batchId) },
      secretsFor: async () => [SECRET],
      lookup: async () => [{ address: '127.0.0.1', family: 4 }],
      allowLoopback: true,
      clock: fixedClock('2026-11-24T20:02:00Z'),
      deadlineMs: 200,
    };
    const handle = webhookHandler({ ...deps, delay: async (receiptHandle, seconds) => void delayed.push([receiptHandle, seconds]) });
    const answer = await handle({ Records: [record('b-drip')] });
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: 'm-b-drip' }]);
    expect(delayed).toEqual([['r-b-drip', 60]]);
    expect(connections).toHaveLength(1);
    // The sender hung up while the receiver was still dripping: cut by the deadline, not by the answer's end.
    expect(await connections[0]!.closed).toEqual({ cutBySender: true });
    expect(connections[0]!.dripped).toBeLessThan(DRIPS);
  });
});
