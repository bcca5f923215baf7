import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLocalEnvironment, type LocalEnvironment } from '../support/local-environment.js';
import { startLocalServer, type LocalServer } from '../../infra/dev/local/server.js';
import { startClearinghouseSandbox, type ClearinghouseSandbox } from '../../infra/dev/sandbox/clearinghouse.js';
import { startUpstreamGate, type UpstreamGate } from './upstream-gate.js';
import { SANDBOX_RIVERA } from '../support/events.js';

/**
 * A throttled clearinghouse under a batch, as `npm start` runs it (SQS seconds scaled: 1 s = 2 ms):
 * every item's first attempt is answered 429; the batch waits with back-off and then finishes with
 * nothing lost, a new upstream Idempotency-Key per attempt, and never more calls at once than the cap.
 */

const REAL = SANDBOX_RIVERA;
const CAP = 3;
const ITEMS = 12;
let sandbox: ClearinghouseSandbox;
let gate: UpstreamGate;
let environment: LocalEnvironment;
let server: LocalServer;

const call = async (path: string, init: RequestInit = {}) => {
  const response = await fetch(`${server.url}${path}`, { ...init, headers: { authorization: 'Bearer local-dev-token', 'content-type': 'application/json' } });
  return (await response.json()) as Record<string, any>;
};

const savedEnv = { ...process.env };

beforeAll(async () => {
  sandbox = await startClearinghouseSandbox({ apiKey: 'fault-key' });
  gate = await startUpstreamGate(sandbox.url);
  Object.assign(process.env, {
    STEDI_BASE_URL: gate.url,
    STEDI_API_KEY: 'fault-key',
    API_TOKENS: 'local=local-dev-token',
    BATCH_MAX_CONCURRENCY: String(CAP),
    UPSTREAM_BUDGET_MS: '3000',
  });
  environment = await startLocalEnvironment(process.env, { batch: { msPerSecond: 2 } });
  server = await startLocalServer({ port: 0 });
});
afterAll(async () => {
  // The local environment writes its settings into process.env: leave it as found for the next file.
  process.env = { ...savedEnv };
  await server?.close();
  await environment?.close();
  await gate?.close();
  await sandbox?.close();
});

describe('a batch against a throttled clearinghouse', () => {
  it('delays but loses nothing, with a new Idempotency-Key per attempt and at most the cap at once', async () => {
    gate.throttled = true;
    const { batchId } = await call('/api/eligibility/batch/v1', {
      method: 'POST',
      body: JSON.stringify({ items: Array.from({ length: ITEMS }, (_, i) => ({ ...REAL, clientRef: `r${i}` })) }),
    });
    // Every item's first attempt is throttled before the clearinghouse recovers.
    while (new Set(gate.keys.filter((key) => key.endsWith('-1-270'))).size < ITEMS) await new Promise((resolve) => setTimeout(resolve, 10));
    const during = await call(`/api/eligibility/batch/v1/${batchId}`);
    expect(during.status).toBe('IN_PROGRESS');
    expect(during.counts.completed + during.counts.failed).toBe(0);
    gate.throttled = false;

    let status: Record<string, any>;
    do {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = await call(`/api/eligibility/batch/v1/${batchId}`);
    } while (!status.completedAt);
    expect(status).toMatchObject({ status: 'COMPLETED', counts: { completed: ITEMS, failed: 0, pending: 0, inProgress: 0 }, outcomes: { active: ITEMS } });
    const { items } = await call(`/api/eligibility/batch/v1/${batchId}/items?pageSize=500`);
    expect(items.map((item: any) => item.clientRef)).toEqual(Array.from({ length: ITEMS }, (_, i) => `r${i}`));
    for (const item of items) {
      expect(item.attempts).toBeGreaterThanOrEqual(2);
      expect(item.status).toBe(200);
    }
    // One key per item attempt: <batchId>-<index>-<attempt>, the last one being the item's attempts.
    for (const item of items) expect(gate.keys).toContain(`${batchId}-${item.index}-${item.attempts}-270`);
    expect(gate.maxInFlight).toBeLessThanOrEqual(CAP);
    // Dozens of back-off rounds through the local server: on a busy shared machine this passes the default 20 s.
  }, 60_000);

  it('counts an item’s 270 and its COB check as two calls: never more calls at once than the cap', async () => {
    gate.throttled = false;
    // Each call is held a little, so an item that made its two calls together would have both open at once.
    gate.delayMs = 40;
    gate.maxInFlight = 0;
    const before = gate.requests.length;
    const { batchId } = await call('/api/eligibility/batch/v1', {
      method: 'POST',
      body: JSON.stringify({ items: Array.from({ length: 2 * CAP }, () => ({ ...REAL, runCobCheck: true })) }),
    });
    let status: Record<string, any>;
    do {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = await call(`/api/eligibility/batch/v1/${batchId}`);
    } while (!status.completedAt);
    gate.delayMs = 0;
    expect(status).toMatchObject({ status: 'COMPLETED', counts: { completed: 2 * CAP } });
    const paths = gate.requests.slice(before).map((request) => request.path);
    expect(paths.filter((path) => path.endsWith('/coordination-of-benefits'))).toHaveLength(2 * CAP);
    expect(gate.maxInFlight).toBeLessThanOrEqual(CAP);
  }, 60_000);
});
