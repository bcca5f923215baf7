/**
 * What the service adds to a real eligibility check beyond the network (not a test): the handler
 * pipeline (JSON, validation), the 270 build, the 271 tokenize/parse/summarize and the response,
 * measured as handler latency minus the time spent waiting on the clearinghouse.
 *
 * Setup: the real eligibility route behind the real middy pipeline, an in-memory enrollment store
 * (so no DynamoDB round trip is counted either way), and the sandbox clearinghouse on loopback.
 * The clearinghouse wait is measured around each Stedi call by a counting fetch wrapper, so
 * "network time" includes the sandbox's own work, exactly as a real clearinghouse's would be.
 *
 * Run: npx tsx bench/roundtrip.ts   → prints and writes bench/results/roundtrip.json
 */
import { readConfig, systemClock } from '../lib/config/index.js';
import { stediClearinghouse } from '../lib/upstream/index.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startClearinghouseSandbox } from '../infra/dev/sandbox/clearinghouse.js';
import { eligibilityRoute } from '../lib/eligibility/index.js';
import { ok } from '../lib/errors/index.js';
import { apiHandler } from '../lib/http/index.js';
import { logger } from '../lib/logging/index.js';
import type { Runtime } from '../lib/runtime/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.ROUNDTRIP_ROUNDS ?? 400);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

export async function measureRoundtrip(rounds = ROUNDS) {
  // Logging is not what this measures (bench/invocations.ts prices it); keep the terminal readable.
  logger.setLogLevel('SILENT');
  const sandbox = await startClearinghouseSandbox({ apiKey: 'bench' });
  // Time spent inside fetch() (request out, full body back): the network wait as the service sees it.
  let waitMs = 0;
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (...args: Parameters<typeof fetch>) => {
    const started = performance.now();
    const response = await realFetch(...args);
    const body = await response.arrayBuffer();
    waitMs += performance.now() - started;
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }) as typeof fetch;

  const runtime: Runtime = {
    config: { ...readConfig({}), stediBaseUrl: sandbox.url },
    enrollments: async () => ({
      get: async () => ({ providerId: 'PROVIDER-SANDBOX-1', clientId: 'bench', npi: '1234567893', organizationName: 'Clinic', status: 'active' }),
      put: async () => undefined,
    }),
    clock: systemClock,
    clearinghouse: stediClearinghouse({ baseUrl: sandbox.url, apiKey: async () => ok('bench'), budgetMs: 25_000, payerSearchBudgetMs: 3_000, sandbox: true }),
  };
  const handler = apiHandler('eligibility', 'eligibility', eligibilityRoute(runtime)) as unknown as (
    event: unknown,
    context: unknown,
  ) => Promise<{ statusCode: number }>;
  const body = JSON.stringify({
    patientFirstName: 'Maria',
    patientLastName: 'Garcia',
    patientDOB: '04-12-1985',
    patientMemberId: 'PPO100001',
    dateOfCoverage: '03-01-2025',
    payerId: 'SBXPPO',
    providerId: 'PROVIDER-SANDBOX-1',
  });
  const event = () => ({
    resource: '/api/eligibility/v1',
    path: '/api/eligibility/v1',
    httpMethod: 'POST',
    isBase64Encoded: false,
    headers: { 'Content-Type': 'application/json' },
    multiValueHeaders: { 'Content-Type': ['application/json'] },
    body,
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    requestContext: { requestId: `rt-${Math.random()}`, authorizer: { clientId: 'bench' }, httpMethod: 'POST', path: '/api/eligibility/v1' },
  });

  const totals: number[] = [];
  const waits: number[] = [];
  const overheads: number[] = [];
  try {
    for (let i = 0; i < rounds + 50; i++) {
      waitMs = 0;
      const started = performance.now();
      const result = await handler(event(), {});
      const total = performance.now() - started;
      if (result.statusCode !== 200) throw new Error(`unexpected status ${result.statusCode}`);
      if (i < 50) continue; // warm-up
      totals.push(total);
      waits.push(waitMs);
      overheads.push(total - waitMs);
    }
  } finally {
    globalThis.fetch = realFetch;
    await sandbox.close();
  }
  return {
    rounds,
    medianTotalMs: median(totals),
    medianNetworkMs: median(waits),
    medianOverheadMs: median(overheads),
    p99OverheadMs: percentile(overheads, 0.99),
    targetMs: 5,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const figures = await measureRoundtrip();
  const line = (n: number) => `${n.toFixed(2)} ms`;
  process.stdout.write(
    `real eligibility round trip (${figures.rounds} warm requests, sandbox on loopback)\n` +
      `  handler total   median ${line(figures.medianTotalMs)}\n` +
      `  network wait    median ${line(figures.medianNetworkMs)}\n` +
      `  service adds    median ${line(figures.medianOverheadMs)}  p99 ${line(figures.p99OverheadMs)}  (target < 5 ms)\n`,
  );
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/roundtrip.json'), `${JSON.stringify(figures, null, 2)}\n`);
}
