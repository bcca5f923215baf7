/**
 * Bounded validation work (docs/security.md#bounded-work), written to bench/results/hostile-json.json:
 * the CPU time to refuse a 6 MB JSON body whose `serviceTypeCodes` holds 2.9 million items, split
 * into reading (strict JSON parser) and validating (validateBody, which cuts the list to maxItems + 1
 * before the compiled validator runs). CPU time is process.cpuUsage (user + system), median of RUNS.
 *
 * `--before` adds what the same list cost without the cut: the compiled validator run on the whole
 * list, as it was before revision 3 (14-30 s; once, not RUNS times).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readJsonBody } from '../lib/http/index.js';
import { eligibility as compiledEligibility, validateBody } from '../lib/validation/index.js';
import { MOCK_PATIENTS } from '../lib/mock/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.HOSTILE_JSON_RUNS ?? 5);
const ITEMS = 2_900_000;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** CPU milliseconds (user + system) spent in `work`. */
function cpuMs<T>(work: () => T): { ms: number; result: T } {
  const start = process.cpuUsage();
  const result = work();
  const used = process.cpuUsage(start);
  return { ms: (used.user + used.system) / 1000, result };
}

const body = JSON.stringify({ ...MOCK_PATIENTS[0], mockRequest: true, serviceTypeCodes: 'x' }).replace('"x"', `[${'1,'.repeat(ITEMS - 1)}1]`);
const source = { headers: { 'content-type': 'application/json' }, body };

const samples = { readMs: [] as number[], validateMs: [] as number[] };
let outcome = '';
for (let run = 0; run < RUNS; run += 1) {
  const read = cpuMs(() => readJsonBody(source));
  if (!read.result.ok) throw new Error(`the body was not read: ${read.result.error.message}`);
  const parsed = read.result.value;
  const validated = cpuMs(() => validateBody('eligibility', parsed));
  if (validated.result.ok) throw new Error('a 2.9M-item list was accepted');
  samples.readMs.push(read.ms);
  samples.validateMs.push(validated.ms);
  outcome = `400 ${validated.result.error.code}, ${validated.result.error.errors?.length} errors, first: ${JSON.stringify(validated.result.error.errors?.[0])}`;
}

let before: { validatorMs: number; validatorErrors: number } | undefined;
if (process.argv.includes('--before')) {
  const parsed = readJsonBody(source);
  if (!parsed.ok) throw new Error('the body was not read');
  const run = cpuMs(() => (compiledEligibility as unknown as (data: unknown) => boolean)(parsed.value));
  before = { validatorMs: run.ms, validatorErrors: (compiledEligibility as unknown as { errors?: unknown[] }).errors?.length ?? 0 };
}

const report = {
  measuredAt: new Date().toISOString(),
  node: process.version,
  bodyBytes: Buffer.byteLength(body),
  items: ITEMS,
  runs: RUNS,
  readMs: median(samples.readMs),
  validateMs: median(samples.validateMs),
  totalMs: median(samples.readMs.map((ms, i) => ms + samples.validateMs[i]!)),
  outcome,
  ...(before ? { before } : {}),
};
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, 'bench/results/hostile-json.json'), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
