import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startClearinghouseSandbox, type ClearinghouseSandbox } from '../../infra/dev/sandbox/clearinghouse.js';
import { startUpstreamGate, type UpstreamGate } from './upstream-gate.js';
import { SANDBOX_RIVERA } from '../support/events.js';

/**
 * The worker killed mid-batch, as `npm start` runs it: the server is a real process (infra/dev/local/main.ts)
 * keeping its DynamoDB on disk (LOCAL_DATA_DIR). While its workers wait on the clearinghouse (the gate
 * holds their calls, so the kill lands while items are IN_PROGRESS and others are still queued), it is
 * killed with SIGKILL; the held calls then reach the clearinghouse (it answers and charges, though nobody
 * hears). A new process over the same data queues the unfinished items again, takes over the abandoned
 * ones when their lease runs out with the same attempt, and finishes the batch: every item answered, and
 * per item exactly one Idempotency-Key the clearinghouse answered 2xx (a repeat of a key is the
 * clearinghouse's idempotent replay, not a second charge).
 */

const ROOT = new URL('../../', import.meta.url).pathname;
const CAP = 3;
const ITEMS = 10;
const LEASE_SECONDS = 2;

let sandbox: ClearinghouseSandbox;
let gate: UpstreamGate;
let dataDir: string;
const children: ChildProcess[] = [];

/** `npm start` over `dataDir`; resolves with its URL once it has printed its banner. */
function startServer(): Promise<{ url: string; banner: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/dev/local/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      PORT: '0',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      LOCAL_DATA_DIR: dataDir,
      STEDI_BASE_URL: gate.url,
      STEDI_API_KEY: 'restart-key',
      API_TOKENS: 'local=local-dev-token',
      BATCH_MAX_CONCURRENCY: String(CAP),
      BATCH_LEASE_SECONDS: String(LEASE_SECONDS),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let banner = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner);
      if (match && /batches: .*\n/.test(banner)) resolve({ url: match[1]!, banner, child });
    });
    child.on('exit', (code) => reject(new Error(`exited early with ${code}: ${banner}`)));
  });
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

async function call(url: string, path: string, init: RequestInit = {}): Promise<Record<string, any>> {
  const response = await fetch(`${url}${path}`, { ...init, headers: { authorization: 'Bearer local-dev-token', 'content-type': 'application/json' } });
  return (await response.json()) as Record<string, any>;
}

const until = async (done: () => boolean | Promise<boolean>) => {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 20));
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'batch-restart-'));
  sandbox = await startClearinghouseSandbox({ apiKey: 'restart-key' });
  gate = await startUpstreamGate(sandbox.url);
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) await killed(child);
  gate?.release();
  await gate?.close();
  await sandbox?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the local server killed mid-batch and started again over the same data', () => {
  it('loses no item and has the clearinghouse charge each item once', async () => {
    const first = await startServer();
    // Let a few items finish, then hold the next calls: the cap's worth of items is IN_PROGRESS, the rest
    // queued. The gate counts the checks it lets through, so exactly CAP pass and the next CAP are held.
    gate.holding = true;
    gate.letThrough = CAP;
    const { batchId, totalCount } = await call(first.url, '/api/eligibility/batch/v1', {
      method: 'POST',
      body: JSON.stringify({ items: Array.from({ length: ITEMS }, (_, i) => ({ ...SANDBOX_RIVERA, clientRef: `appt-${i}` })) }),
    });
    expect(totalCount).toBe(ITEMS);
    await until(() => gate.held === CAP);
    expect(gate.answered).toHaveLength(CAP);
    // The claims' counter moves run beside the calls: kill once they have landed (the window between an
    // item's state write and its counter add is a known gap, docs/batch.md#local, not what this tests).
    const status = () => call(first.url, `/api/eligibility/batch/v1/${batchId}`);
    await until(async () => (await status()).counts.inProgress === CAP);
    const before = await status();
    expect(before.counts.pending).toBeGreaterThan(0);
    const open = new Set(gate.keys.slice(-CAP));

    await killed(first.child);
    gate.release();
    await until(() => gate.held === 0 && gate.answered.length === gate.keys.length);

    const second = await startServer();
    expect(second.banner).toMatch(new RegExp(`${ITEMS - before.counts.completed - before.counts.failed} unfinished items found at start queued again`));
    const statusNow = () => call(second.url, `/api/eligibility/batch/v1/${batchId}`);
    await until(async () => Boolean((await statusNow()).completedAt));
    expect(await statusNow()).toMatchObject({ status: 'COMPLETED', counts: { completed: ITEMS, failed: 0, pending: 0, inProgress: 0, cancelled: 0 } });
    const { items } = await call(second.url, `/api/eligibility/batch/v1/${batchId}/items?pageSize=500`);
    expect(items.map((item: any) => [item.clientRef, item.state, item.status])).toEqual(
      Array.from({ length: ITEMS }, (_, i) => [`appt-${i}`, 'COMPLETED', 200]),
    );

    // One charged key per item; the items open at the kill were taken over with their own key again.
    const charged = new Map<string, Set<string>>();
    for (const { key, status: code } of gate.answered) {
      if (code >= 300) continue;
      const item = key.replace(/-\d+-270$/, '');
      charged.set(item, (charged.get(item) ?? new Set()).add(key));
    }
    expect([...charged.keys()].sort()).toEqual(Array.from({ length: ITEMS }, (_, i) => `${batchId}-${i}`).sort());
    for (const keys of charged.values()) expect(keys.size).toBe(1);
    for (const key of open) expect(gate.answered.filter((answer) => answer.key === key)).toHaveLength(2);
    // One key, one body: the 270 sent again after the restart is the very bytes sent before it.
    const bodies = new Map<string, Set<string>>();
    for (const { key, body } of gate.requests) bodies.set(key, (bodies.get(key) ?? new Set()).add(body));
    for (const key of open) expect(gate.requests.filter((request) => request.key === key)).toHaveLength(2);
    for (const [key, sent] of bodies) expect([key, sent.size]).toEqual([key, 1]);
    for (const item of items) expect(item.attempts).toBe(1);
    expect(gate.maxInFlight).toBeLessThanOrEqual(CAP);
    await killed(second.child);
    // Two process starts (tsx compiling the server) on a shared machine: well past the default 20 s.
  }, 90_000);
});
