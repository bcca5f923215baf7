/**
 * X12 speed: our whole 271 reading and answer (interpret271: read, plan, people, blocks, benefits,
 * other payers, notices) vs node-x12 only parsing the same text. Ours is timed as it is deployed:
 * an esbuild bundle of lib/eligibility/interpret.ts (Lambda runs the esbuild bundle; tsx, which
 * runs this script, wraps every function for names and slows our code, not node-x12's prebuilt
 * JavaScript). The tsx-run figure is kept beside it (oursTsx_us) for comparison.
 * Uses the shared corpus 271s when present, else the project's fixtures. Writes bench/results/x12.json.
 * Run: npx tsx bench/x12.ts
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { X12Parser } from 'node-x12';
import { interpret271 as interpretTsx } from '../lib/eligibility/interpret.js';
import { QUESTION } from './question.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corpus = join(root, '../shared/corpus/x12');
const fixtures = join(root, 'test/fixtures/x12');
const source = existsSync(join(corpus, 'manifest.json')) ? corpus : fixtures;
const files = readdirSync(source).filter((f) => f.endsWith('.271')).sort();

// The deployed form: one esm bundle, as infra/cdk bundles the functions.
const bundle = join(root, 'bench/results/.interpret.bundle.mjs');
mkdirSync(dirname(bundle), { recursive: true });
await build({ entryPoints: [join(root, 'lib/eligibility/interpret.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node22', outfile: bundle, logLevel: 'warning' });
const { interpret271 } = (await import(pathToFileURL(bundle).href)) as typeof import('../lib/eligibility/interpret.js');

const ROUNDS = 15;
const MIN_BATCH_MS = 20;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Median microseconds per call over ROUNDS batches, each long enough to time reliably. */
function time(fn: () => void): number {
  let batch = 1;
  for (;;) {
    const start = performance.now();
    for (let i = 0; i < batch; i++) fn();
    if (performance.now() - start >= MIN_BATCH_MS) break;
    batch *= 2;
  }
  const samples: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = performance.now();
    for (let i = 0; i < batch; i++) fn();
    samples.push(((performance.now() - start) * 1000) / batch);
  }
  return median(samples);
}

interface Row {
  file: string;
  ours_us: number;
  oursTsx_us: number;
  nodeX12_us: number | null;
  ratio: number | null;
  nodeX12Error?: string;
}

const rows: Row[] = [];
for (const file of files) {
  const text = readFileSync(join(source, file), 'utf8');
  const ours = time(() => interpret271(text, QUESTION));
  const oursTsx = time(() => interpretTsx(text, QUESTION));
  let theirs: number | null = null;
  let error: string | undefined;
  try {
    new X12Parser(false).parse(text);
    theirs = time(() => new X12Parser(false).parse(text));
  } catch (e) {
    error = e instanceof Error ? e.name : 'error';
  }
  const row: Row = { file, ours_us: round(ours), oursTsx_us: round(oursTsx), nodeX12_us: theirs === null ? null : round(theirs), ratio: theirs === null ? null : round(theirs / ours) };
  if (error) row.nodeX12Error = error;
  rows.push(row);
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

const ratios = rows.flatMap((r) => (r.ratio === null ? [] : [r.ratio]));
const summary = {
  source: source === corpus ? 'shared corpus' : 'project fixtures',
  node: process.version,
  files: rows.length,
  nodeX12Failures: rows.filter((r) => r.ratio === null).length,
  medianOurs_us: round(median(rows.map((r) => r.ours_us))),
  medianOursTsx_us: round(median(rows.map((r) => r.oursTsx_us))),
  medianNodeX12_us: ratios.length ? round(median(rows.flatMap((r) => (r.nodeX12_us === null ? [] : [r.nodeX12_us])))) : null,
  medianRatio: ratios.length ? round(median(ratios)) : null,
  medianRatioTsx: ratios.length ? round(median(rows.flatMap((r) => (r.nodeX12_us === null ? [] : [r.nodeX12_us / r.oursTsx_us])))) : null,
  target: '>= 5x',
};

for (const r of rows) {
  console.log(`${r.file.padEnd(22)} ours ${r.ours_us.toFixed(2).padStart(9)} us   node-x12 ${r.nodeX12_us === null ? `failed (${r.nodeX12Error})`.padStart(9) : `${r.nodeX12_us.toFixed(2).padStart(9)} us   ${r.ratio}x`}`);
}
console.log(JSON.stringify(summary, null, 2));
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, 'bench/results/x12.json'), `${JSON.stringify({ summary, rows }, null, 2)}\n`);
