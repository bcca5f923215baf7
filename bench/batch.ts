/**
 * Batch eligibility speed (docs/batch.md#speed; not a test): everything runs as `npm start` runs it
 * (local gateway, batch function, in-process queue with the worker capped at 10, dynalite).
 *  - a 10,000-item JSON submit answered (target ≤ 5 s);
 *  - 2,000 real items against a sandbox clearinghouse answering in 500 ms: time to COMPLETED vs the
 *    ideal 2,000 × 0.5 s / 10 = 100 s (target ≤ 1.15×), and the most upstream calls at once (≤ 10);
 *  - a 500-item results page of real answers (target ≤ 300 ms, median of 7);
 *  - server heap after GC before and after the batches (flat).
 * Run: node --expose-gc --import tsx bench/batch.ts   → prints and writes bench/results/batch.json
 * BATCH_BENCH_ITEMS shortens the 2,000-item run (the ideal time scales with it).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalEnvironment } from '../infra/local/environment.js';
import { startLocalServer } from '../infra/local/server.js';
import { startClearinghouseSandbox } from '../infra/sandbox/clearinghouse.js';
import { logger } from '../lib/logging/index.js';
import { startUpstreamGate } from '../test/batch/upstream-gate.js';
import { MOCK_SET_1, SANDBOX_RIVERA } from '../test/support/events.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUN_ITEMS = Number(process.env.BATCH_BENCH_ITEMS ?? 2000);
const UPSTREAM_MS = 500;
const CONCURRENCY = 10;
const MOCK = MOCK_SET_1;
const REAL = SANDBOX_RIVERA;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const heapMiB = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round((process.memoryUsage().heapUsed / 1048576) * 10) / 10;
};

logger.setLogLevel('SILENT');
const sandbox = await startClearinghouseSandbox({ apiKey: 'bench' });
const gate = await startUpstreamGate(sandbox.url);
process.env.STEDI_BASE_URL = gate.url;
process.env.STEDI_API_KEY = 'bench';
process.env.API_TOKENS = 'local=local-dev-token';
process.env.BATCH_MAX_CONCURRENCY = String(CONCURRENCY);
const environment = await startLocalEnvironment(process.env);
const server = await startLocalServer({ port: 0 });
const call = async (path: string, init: RequestInit = {}) => {
  const response = await fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: 'Bearer local-dev-token', 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};
const completed = async (batchId: string) => {
  for (;;) {
    const { body } = await call(`/api/eligibility/batch/v1/${batchId}`);
    if (body.completedAt) return body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

try {
  // Warm the functions (first imports) so the timings below are the work, not module loading.
  await completed((await call('/api/eligibility/batch/v1', { method: 'POST', body: JSON.stringify({ items: [MOCK, REAL] }) })).body.batchId);
  const heapBefore = heapMiB();

  gate.delayMs = UPSTREAM_MS;
  gate.maxInFlight = 0;
  let started = performance.now();
  const run = await call('/api/eligibility/batch/v1', { method: 'POST', body: JSON.stringify({ items: Array.from({ length: RUN_ITEMS }, () => REAL) }) });
  const final = await completed(run.body.batchId);
  const runSeconds = (performance.now() - started) / 1000;
  const idealSeconds = (RUN_ITEMS * UPSTREAM_MS) / 1000 / CONCURRENCY;
  gate.delayMs = 0;

  // Pages of real answers (each item a whole eligibility answer).
  const pageMs: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    const page = await call(`/api/eligibility/batch/v1/${run.body.batchId}/items?pageSize=500`);
    pageMs.push(performance.now() - t);
    if (page.body.items.length !== Math.min(500, RUN_ITEMS)) throw new Error('short page');
  }
  const heapAfterRun = heapMiB();

  const big = JSON.stringify({ items: Array.from({ length: 10_000 }, (_, i) => ({ ...MOCK, clientRef: `row-${i}` })) });
  started = performance.now();
  const submitted = await call('/api/eligibility/batch/v1', { method: 'POST', body: big });
  const submitMs = performance.now() - started;
  if (submitted.status !== 202) throw new Error(`submit answered ${submitted.status}`);
  // Not waited for: cancelled, its remaining messages drain without work worth measuring.
  await call(`/api/eligibility/batch/v1/${submitted.body.batchId}`, { method: 'DELETE' });
  const heapAfter = heapMiB();

  const report = {
    submit10kMs: Math.round(submitMs),
    submitTargetMs: 5000,
    run: {
      items: RUN_ITEMS,
      seconds: Math.round(runSeconds * 10) / 10,
      idealSeconds,
      ratio: Math.round((runSeconds / idealSeconds) * 1000) / 1000,
      target: 1.15,
      maxUpstreamInFlight: gate.maxInFlight,
      status: final.status,
      counts: final.counts,
    },
    page500Ms: Math.round(median(pageMs)),
    pageTargetMs: 300,
    heapMiB: { before: heapBefore, afterRun: heapAfterRun, afterSubmit: heapAfter, gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function' },
  };
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/batch.json'), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} finally {
  await server.close();
  await environment.close();
  await gate.close();
  await sandbox.close();
}
