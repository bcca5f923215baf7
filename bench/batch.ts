/**
 * Batch eligibility speed (docs/batch.md#speed; not a test): everything runs as `npm start` runs it
 * (local gateway, batch function, in-process queue with the worker capped at 10, dynalite).
 *  - a 10,000-item JSON submit answered (target ≤ 5 s);
 *  - 2,000 real items against a sandbox clearinghouse answering in 500 ms (in a process of its own,
 *    ./batch-upstream.ts, as Stedi is): time to COMPLETED vs the ideal 2,000 × 0.5 s / 10 = 100 s
 *    (target ≤ 1.15×), the most upstream calls at once (≤ 10), the server process's CPU per item
 *    (gateway, worker, dynalite, and this bench's own polling), and the busy time per item of its main
 *    thread, whose one event loop runs every function (what caps the throughput);
 *  - a 500-item results page of real answers (target ≤ 300 ms, median of 7);
 *  - server heap after GC before the batches and after each of five consecutive batches (flat).
 * Run: node --expose-gc --import tsx bench/batch.ts   → prints and writes bench/results/batch.json
 * BATCH_BENCH_ITEMS shortens the 2,000-item run (the ideal time scales with it); BATCH_BENCH_PARTS picks
 * parts (`run,page,memory,submit`, default all), e.g. `run` alone for a CPU profile of the worker path.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalEnvironment } from '../infra/dev/local/environment.js';
import { startLocalServer } from '../infra/dev/local/server.js';
import { logger } from '../lib/logging/index.js';
import { MOCK_SET_1, SANDBOX_RIVERA } from '../test/support/events.js';
import type { UpstreamCommand, UpstreamStats } from './batch-upstream.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUN_ITEMS = Number(process.env.BATCH_BENCH_ITEMS ?? 2000);
const PARTS = new Set((process.env.BATCH_BENCH_PARTS ?? 'run,page,memory,submit').split(','));
/** The five consecutive batches of the memory figure: real items, no added latency. */
const MEMORY_BATCHES = 5;
const MEMORY_ITEMS = 400;
const UPSTREAM_MS = 500;
const CONCURRENCY = 10;
const MOCK = MOCK_SET_1;
const REAL = SANDBOX_RIVERA;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
/** The main thread's heap after GC. */
const heapMiB = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round((process.memoryUsage().heapUsed / 1048576) * 10) / 10;
};
/** The whole process's resident memory: every thread, dynalite's included (its data lives on its own thread). */
const rssMiB = () => Math.round((process.memoryUsage().rss / 1048576) * 10) / 10;

logger.setLogLevel('SILENT');
const upstream = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/batch-upstream.ts')], {
  cwd: root,
  env: { ...process.env, NODE_OPTIONS: '', BENCH_UPSTREAM_KEY: 'bench' },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const upstreamUrl = await new Promise<string>((resolve, reject) => {
  upstream.once('message', (message) => resolve((message as { url: string }).url));
  upstream.once('exit', (code) => reject(new Error(`the upstream process exited with ${code}`)));
});
/** One command to the upstream process, answered with its gate's figures. */
const tellUpstream = (command: UpstreamCommand) =>
  new Promise<UpstreamStats>((resolve) => {
    upstream.once('message', (stats) => resolve(stats as UpstreamStats));
    upstream.send(command);
  });
process.env.STEDI_BASE_URL = upstreamUrl;
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
/** Polled once a second: the timings come from the batch's own completedAt, not from the poll. */
const completed = async (batchId: string, everyMs = 1000) => {
  for (;;) {
    const { body } = await call(`/api/eligibility/batch/v1/${batchId}`);
    if (body.completedAt) return body;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
};
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

try {
  // Warm the functions (first imports) so the timings below are the work, not module loading.
  await completed((await call('/api/eligibility/batch/v1', { method: 'POST', body: JSON.stringify({ items: [MOCK, REAL] }) })).body.batchId, 50);
  const heapBefore = heapMiB();
  const rssBefore = rssMiB();
  const report: Record<string, unknown> = {};

  let runBatchId = '';
  if (PARTS.has('run')) {
    await tellUpstream({ delayMs: UPSTREAM_MS, resetMax: true });
    const startedAt = Date.now();
    const cpuBefore = cpuMs();
    const loopBefore = performance.eventLoopUtilization();
    const run = await call('/api/eligibility/batch/v1', { method: 'POST', body: JSON.stringify({ items: Array.from({ length: RUN_ITEMS }, () => REAL) }) });
    runBatchId = run.body.batchId;
    const final = await completed(runBatchId);
    const cpuPerItem = (cpuMs() - cpuBefore) / RUN_ITEMS;
    const loopPerItem = performance.eventLoopUtilization(loopBefore).active / RUN_ITEMS;
    const runSeconds = (Date.parse(final.completedAt) - startedAt) / 1000;
    const idealSeconds = (RUN_ITEMS * UPSTREAM_MS) / 1000 / CONCURRENCY;
    const { maxInFlight } = await tellUpstream({ delayMs: 0 });
    report.run = {
      items: RUN_ITEMS,
      seconds: Math.round(runSeconds * 10) / 10,
      idealSeconds,
      ratio: Math.round((runSeconds / idealSeconds) * 1000) / 1000,
      target: 1.15,
      maxUpstreamInFlight: maxInFlight,
      cpuMsPerItem: Math.round(cpuPerItem * 10) / 10,
      mainThreadMsPerItem: Math.round(loopPerItem * 10) / 10,
      status: final.status,
      counts: final.counts,
    };
  }

  if (PARTS.has('page') && runBatchId) {
    // Pages of real answers (each item a whole eligibility answer).
    const pageMs: number[] = [];
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      const page = await call(`/api/eligibility/batch/v1/${runBatchId}/items?pageSize=500`);
      pageMs.push(performance.now() - t);
      if (page.body.items.length !== Math.min(500, RUN_ITEMS)) throw new Error('short page');
    }
    report.page500Ms = Math.round(median(pageMs));
    report.pageTargetMs = 300;
  }

  if (PARTS.has('memory')) {
    const after: number[] = [];
    const rssAfter: number[] = [];
    for (let i = 0; i < MEMORY_BATCHES; i++) {
      const batch = await call('/api/eligibility/batch/v1', {
        method: 'POST',
        body: JSON.stringify({ items: Array.from({ length: MEMORY_ITEMS }, () => REAL) }),
      });
      await completed(batch.body.batchId, 200);
      after.push(heapMiB());
      rssAfter.push(rssMiB());
    }
    report.heapMiB = {
      before: heapBefore,
      afterEachBatch: after,
      rssBefore,
      rssAfterEachBatch: rssAfter,
      itemsPerBatch: MEMORY_ITEMS,
      gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function',
    };
  }

  if (PARTS.has('submit')) {
    const big = JSON.stringify({ items: Array.from({ length: 10_000 }, (_, i) => ({ ...MOCK, clientRef: `row-${i}` })) });
    const started = performance.now();
    const submitted = await call('/api/eligibility/batch/v1', { method: 'POST', body: big });
    report.submit10kMs = Math.round(performance.now() - started);
    report.submitTargetMs = 5000;
    if (submitted.status !== 202) throw new Error(`submit answered ${submitted.status}`);
    // Last, and cancelled: its remaining messages drain without work worth measuring.
    await call(`/api/eligibility/batch/v1/${submitted.body.batchId}`, { method: 'DELETE' });
  }

  const ordered = {
    submit10kMs: report.submit10kMs,
    submitTargetMs: report.submitTargetMs,
    run: report.run,
    page500Ms: report.page500Ms,
    pageTargetMs: report.pageTargetMs,
    heapMiB: report.heapMiB,
    loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
  };
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  if (PARTS.size === 4) writeFileSync(join(root, 'bench/results/batch.json'), `${JSON.stringify(ordered, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(ordered, null, 2)}\n`);
} finally {
  await server.close();
  await environment.close();
  await tellUpstream({ close: true });
}
