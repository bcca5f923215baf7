/**
 * Insurance discovery, end to end (docs/finding-coverage.md#what-each-call-costs; not a test): the
 * discovery function behind the local server, dynalite, and the sandbox clearinghouse on loopback.
 * For each sandbox scenario it measures the time from submit to COMPLETE (the PENDING one polled at
 * once until COMPLETE, as a client following Location would) and counts the upstream calls each
 * discovery cost (discovery starts, result reads, eligibility checks).
 *
 * Run: npx tsx bench/discovery.ts   → prints and writes bench/results/discovery.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalEnvironment } from '../infra/dev/local/environment.js';
import { startLocalServer } from '../infra/dev/local/server.js';
import { startClearinghouseSandbox } from '../infra/dev/sandbox/clearinghouse.js';
import { logger } from '../lib/logging/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.DISCOVERY_ROUNDS ?? 30);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const SCENARIOS = [
  { name: 'PENDING first, then one coverage (Evan Waite)', patient: ['Evan', 'Waite', '08-19-1975'] },
  { name: 'one coverage with its 271 carried (Dana Quest)', patient: ['Dana', 'Quest', '04-12-1980'] },
  { name: 'two coverages (Grace Twofold)', patient: ['Grace', 'Twofold', '02-02-1988'] },
] as const;

export async function measureDiscovery(rounds = ROUNDS) {
  logger.setLogLevel('SILENT');
  const sandbox = await startClearinghouseSandbox({ apiKey: 'bench' });
  const env = process.env;
  Object.assign(env, { STEDI_BASE_URL: sandbox.url, STEDI_API_KEY: 'bench', API_TOKENS: 'local=bench-token', DISCOVERY_MAX_PER_DAY: String(rounds * 10) });
  const environment = await startLocalEnvironment(env);
  const server = await startLocalServer({ port: 0 });
  const headers = { authorization: 'Bearer bench-token', 'content-type': 'application/json' };
  const results = [];
  try {
    for (const scenario of SCENARIOS) {
      const [first, last, dob] = scenario.patient;
      const body = JSON.stringify({
        patientFirstName: first,
        patientLastName: last,
        patientDOB: dob,
        dateOfService: '03-01-2025',
        providerId: 'PROVIDER-SANDBOX-1',
      });
      const before = { ...sandbox.stats };
      const ms: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const started = performance.now();
        let answer = await fetch(`${server.url}/api/insurance-discovery/v1`, { method: 'POST', headers, body });
        let json = (await answer.json()) as { status: string; discoveryId: string };
        const location = answer.headers.get('location');
        while (json.status !== 'COMPLETE') {
          answer = await fetch(`${server.url}${location}`, { headers });
          json = (await answer.json()) as { status: string; discoveryId: string };
        }
        ms.push(performance.now() - started);
      }
      const calls = {
        discoveryStarts: (sandbox.stats.discoveryCalls - before.discoveryCalls) / rounds,
        resultReads: (sandbox.stats.discoveryResultCalls - before.discoveryResultCalls) / rounds,
        eligibilityChecks: (sandbox.stats.rawX12Calls - before.rawX12Calls) / rounds,
      };
      results.push({
        scenario: scenario.name,
        rounds,
        medianMs: median(ms),
        upstreamCalls: calls,
        upstreamCallsTotal: calls.discoveryStarts + calls.resultReads + calls.eligibilityChecks,
      });
    }
  } finally {
    await server.close();
    await environment.close();
    await sandbox.close();
  }
  return { scenarios: results };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // Rounds run one after the other: the figure is the time one client waits, not throughput.
  const report = await measureDiscovery();
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/discovery.json'), `${JSON.stringify(report, null, 2)}\n`);
  for (const s of report.scenarios)
    console.log(`${s.scenario}: median ${s.medianMs.toFixed(1)} ms submit → COMPLETE, ${s.upstreamCallsTotal} upstream calls`, s.upstreamCalls);
  process.exit(0);
}
