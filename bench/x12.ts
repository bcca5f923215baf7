/**
 * X12 speed: our whole 271 reading and answer (interpret271: read, plan, people, blocks, benefits,
 * other payers, notices) vs node-x12 only parsing the same text, and our reading alone (readReply:
 * tokenizer, envelope, 271 loops, rows) beside it, so the table shows where the time goes. The
 * target is 1.5x: above it readability wins, no speed tricks (docs/benchmarks.md#reading-271-replies).
 *
 * Ours is timed as it is deployed: an esbuild bundle (Lambda runs the esbuild bundle; tsx, which
 * runs this script, wraps every function for names and slows our code, not node-x12's prebuilt
 * JavaScript). Every parser first runs over the whole corpus for WARM_MS, so each file is timed
 * warm (as a warm Lambda reads it) and with the code already optimised for every file's shape.
 * Then each round times ours, ours reading only, and node-x12 back to back on the same file, so a
 * machine that speeds up or slows down mid-run moves all three alike; a file's figure is the
 * median of ROUNDS rounds and the ratio is the median of the files' ratios.
 *
 * Reads the corpus as bench/corpus.ts gives it (the shared corpus when present, else the project's
 * fixtures; UTF-8 without a byte-order mark). node-x12 counts as parsing a file only when it returns a
 * transaction set with segments: given a text it cannot read it may return nothing without throwing. Writes
 * bench/results/<out> (default x12.json). Node's version is part of the result: bench/run.ts runs
 * this on the local Node and on Lambda's Node major (docs/benchmarks.md#reading-271-replies).
 * Run: npx tsx bench/x12.ts [out.json]
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { X12Parser } from 'node-x12';
import { corpus271 } from './corpus.js';
import { QUESTION } from './question.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corpus = corpus271();
const files = corpus.files.map((f) => f.file);
const out = process.argv[2] ?? 'x12.json';

// The deployed form: one esm bundle, as infra/deploy bundles the functions.
const bundle = join(root, `bench/results/.x12-${process.pid}.bundle.mjs`);
mkdirSync(dirname(bundle), { recursive: true });
await build({
  stdin: {
    contents: "export { interpret271 } from './lib/eligibility/interpret.ts';\nexport { readReply } from './lib/eligibility/reply.ts';\n",
    resolveDir: root,
    loader: 'ts',
    sourcefile: 'x12-bench-entry.ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  outfile: bundle,
  logLevel: 'warning',
});
const { interpret271, readReply } = (await import(pathToFileURL(bundle).href)) as typeof import('../lib/eligibility/interpret.js') &
  typeof import('../lib/eligibility/reply.js');

const WARM_MS = 3000;
const ROUNDS = 15;
const MIN_BATCH_MS = 10;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Microseconds per call of one batch. */
function batch(fn: () => unknown, size: number): number {
  const start = performance.now();
  for (let i = 0; i < size; i++) fn();
  return ((performance.now() - start) * 1000) / size;
}

/** A batch size whose batch lasts at least MIN_BATCH_MS. */
function batchSize(fn: () => unknown): number {
  let size = 1;
  while (batch(fn, size) * size < MIN_BATCH_MS * 1000) size *= 2;
  return size;
}

function theirs(text: string): () => unknown {
  return () => new X12Parser(false).parse(text);
}

const texts = corpus.files.map((f) => f.text);
/**
 * Whether node-x12 reads the text into an interchange with at least one transaction set that has
 * segments (it may throw, or return nothing or an empty shell without throwing).
 */
const parses = texts.map((text) => {
  try {
    const interchange = new X12Parser(false).parse(text) as { functionalGroups?: { transactions?: { segments?: unknown[] }[] }[] } | undefined;
    return (interchange?.functionalGroups ?? []).some((group) => (group.transactions ?? []).some((set) => (set.segments?.length ?? 0) > 0));
  } catch {
    return false;
  }
});
const warmUntil = performance.now() + WARM_MS;
while (performance.now() < warmUntil) {
  for (let i = 0; i < texts.length; i++) {
    interpret271(texts[i]!, QUESTION);
    readReply(texts[i]!);
    if (parses[i]) theirs(texts[i]!)();
  }
}

interface Row {
  file: string;
  /** The text's size in UTF-8 bytes (no BOM). */
  bytes: number;
  /** read + whole answer (interpret271) */
  ours_us: number;
  /** reading alone (readReply) */
  read_us: number;
  nodeX12_us: number | null;
  ratio: number | null;
  readRatio: number | null;
  nodeX12Error?: string;
}

const round = (n: number): number => Math.round(n * 100) / 100;
const rows: Row[] = [];
for (let f = 0; f < files.length; f++) {
  const text = texts[f]!;
  const whole = () => interpret271(text, QUESTION);
  const read = () => readReply(text);
  const parse = parses[f] ? theirs(text) : undefined;
  const sizes = [batchSize(whole), batchSize(read), parse ? batchSize(parse) : 0];
  const samples: [number[], number[], number[]] = [[], [], []];
  for (let r = 0; r < ROUNDS; r++) {
    samples[0].push(batch(whole, sizes[0]!));
    samples[1].push(batch(read, sizes[1]!));
    if (parse) samples[2].push(batch(parse, sizes[2]!));
  }
  const ours = median(samples[0]);
  const reading = median(samples[1]);
  const nodeX12 = parse ? median(samples[2]) : null;
  const row: Row = {
    file: files[f]!,
    bytes: corpus.files[f]!.bytes,
    ours_us: round(ours),
    read_us: round(reading),
    nodeX12_us: nodeX12 === null ? null : round(nodeX12),
    ratio: nodeX12 === null ? null : round(nodeX12 / ours),
    readRatio: nodeX12 === null ? null : round(nodeX12 / reading),
  };
  if (!parses[f]) row.nodeX12Error = 'node-x12 reads no interchange from this file';
  rows.push(row);
}

const compared = rows.filter((r) => r.ratio !== null);
const summary = {
  source: corpus.source,
  node: process.version,
  files: rows.length,
  nodeX12Failures: rows.length - compared.length,
  medianOurs_us: round(median(rows.map((r) => r.ours_us))),
  medianRead_us: round(median(rows.map((r) => r.read_us))),
  medianNodeX12_us: compared.length ? round(median(compared.map((r) => r.nodeX12_us!))) : null,
  medianRatio: compared.length ? round(median(compared.map((r) => r.ratio!))) : null,
  medianReadRatio: compared.length ? round(median(compared.map((r) => r.readRatio!))) : null,
  /** The answer's share of the whole time (median over files): what building the answer adds to reading. */
  medianAnswerShare: round(median(rows.map((r) => (r.ours_us - r.read_us) / r.ours_us))),
  target: '>= 1.5x',
};

for (const r of rows) {
  const them = r.nodeX12_us === null ? 'failed'.padStart(9) : `${r.nodeX12_us.toFixed(2).padStart(9)} us`;
  const ratios = r.ratio === null ? '' : `   ${r.ratio}x (reading alone ${r.readRatio}x)`;
  console.log(`${r.file.padEnd(22)} ours ${r.ours_us.toFixed(2).padStart(9)} us   reading ${r.read_us.toFixed(2).padStart(8)} us   node-x12 ${them}${ratios}`);
}
console.log(JSON.stringify(summary, null, 2));
writeFileSync(join(root, 'bench/results', out), `${JSON.stringify({ summary, rows }, null, 2)}\n`);
rmSync(bundle, { force: true });
