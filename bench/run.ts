/**
 * `npm run bench`: every benchmark, one table, one JSON (bench/results/summary.json).
 *  - 271 read + whole answer (as the esbuild bundle runs it), and reading alone, vs node-x12 parse on
 *    the same files: bench/x12.ts, spawned twice: on this Node (x12.json) and on Lambda's Node major
 *    (x12-lambda-node.json, a Node binary npx fetches from the npm registry; skipped when it cannot),
 *    plus MB/s computed here from the files' sizes.
 *  - The 271 answer's cost per KB for a reply of 8,000 rows against one of 1,000 (linear growth):
 *    bench/x12-scale.ts (spawned; it writes x12-scale.json).
 *  - Cold import of each function bundle vs a bare `node -e ""`, and bundle sizes: bench/bundles.ts,
 *    on this Node and on Lambda's Node major (docs/benchmarks.md#two-runtimes).
 *  - Warm in-process invocations/s, mock and real-against-sandbox eligibility: bench/invocations.ts.
 *  - PDF render time for 1-, 2- and 5-page letters: bench/pdf.ts (spawned; it writes pdf.json).
 *  - Batch eligibility: a 10,000-item submit, 2,000 items against a 500 ms clearinghouse at cap 10, a
 *    500-item results page, heap: bench/batch.ts (spawned with --expose-gc; it writes batch.json).
 *  - Hostile and large batch requests (10,000 items, 10,000 `{}`, a 1.4 M-row CSV, a page by state,
 *    500 rich answers), CPU and RSS each: bench/batch-hostile.ts (spawned; it writes batch-hostile.json).
 *  - Hostile input: every PDF bomb shape with the decompression guard and before it, and the strict
 *    JSON parser vs JSON.parse: bench/hostile.ts (spawned; it writes hostile.json).
 *  - A webhook receiver that drips a byte every 5 s against another client's webhook on the local
 *    server: bench/webhook-hostile.ts (spawned; it writes webhook-hostile.json).
 *  - An upstream answering 400 MB (clearinghouse) or 40 MB (payer search): CPU and memory of the one
 *    request, read with the cap: bench/upstream-caps.ts (spawned; it writes upstream-caps.json).
 *  - Letters against the payer's criteria: added latency and tokens against the sandbox, an offline
 *    estimate of the real API's bill, and a 3-page letter with a criteria table: bench/letter-criteria.ts
 *    (spawned; letter-criteria.json).
 *  - Hostile letter input: a 20 MB model answer, 20,000 citations, every hostile notes PDF through
 *    the isolated parse (CPU seconds, peak growth): bench/letter-hostile.ts (spawned; letter-hostile.json).
 *  - Insurance discovery from submit to COMPLETE against the sandbox, and its upstream calls:
 *    bench/discovery.ts (spawned; it writes discovery.json).
 *  - An insurance card read end to end against the sandboxes, each sample card and the Medicare card with
 *    `check`: bench/card.ts (spawned; it writes card.json).
 * Every figure is a median over repeated runs; where a baseline exists the row shows the ratio and
 * the target. Targets are reported, not enforced (the exit code is 0 either way).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BatchHostileReport } from './batch-hostile.js';
import type { CardBenchRow } from './card.js';
import { batchHostileRows } from './batch-hostile-rows.js';
import { batchRows, type BatchReport } from './batch-rows.js';
import { measureBundles, type BundleReport } from './bundles.js';
import type { FunctionName } from '../infra/deploy/functions.js';
import type { HostileReport, ProbeResult } from './hostile.js';
import type { UpstreamCapsReport } from './upstream-caps.js';
import type { LetterHostileFigure } from './letter-hostile.js';
import type { LetterCriteriaReport } from './letter-criteria.js';
import { measureInvocations, type InvocationSample } from './invocations.js';
import type { WebhookHostileReport } from './webhook-hostile.js';
import { LAMBDA_NODE_MAJOR, lambdaNodePath } from './lambda-node.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, 'bench/results');

interface Row {
  figure: string;
  value: string;
  baseline: string;
  ratio: string;
  target: string;
  pass: boolean | null;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const fixed = (n: number, places = 1): string => n.toFixed(places);

function runScript(script: string, args: string[] = [], nodeArgs: string[] = []): void {
  execFileSync(process.execPath, [...nodeArgs, '--import', 'tsx', join(root, 'bench', script), ...args], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Runs bench/<name>.ts and reads what it writes, bench/results/<name>.json. */
function resultOf<T>(script: string, nodeArgs: string[] = []): T {
  runScript(script, [], nodeArgs);
  return JSON.parse(readFileSync(join(results, script.replace(/\.ts$/, '.json')), 'utf8')) as T;
}

/** bench/x12-scale.ts: µs per KB of the whole answer for a large and a small reply. */
interface X12ScaleReport {
  small: { rows: number; kb: number; usPerKb: number };
  large: { rows: number; kb: number; usPerKb: number };
  ratioPerKb: number;
}

/** The answer's cost grows with the reply: per KB, a large reply within 1.5x of a small one. */
function x12ScaleRows(r: X12ScaleReport): Row[] {
  return [
    {
      figure: `271 answer per KB: ${r.large.rows} rows (${r.large.kb} KB) against ${r.small.rows} rows (${r.small.kb} KB)`,
      value: `${fixed(r.large.usPerKb)} µs/KB`,
      baseline: `${fixed(r.small.usPerKb)} µs/KB`,
      ratio: `${fixed(r.ratioPerKb, 2)}x`,
      target: '<= 1.5x',
      pass: r.ratioPerKb <= 1.5,
    },
  ];
}

interface X12Result {
  summary: { source: string; node: string; files: number; nodeX12Failures: number; medianReadRatio: number | null; medianAnswerShare: number };
  rows: { file: string; bytes: number; ours_us: number; read_us: number; nodeX12_us: number | null; ratio: number | null; readRatio: number | null }[];
}

/**
 * The ≥ 1.5x target (readability wins above it) is judged on Lambda's runtime when it ran, else on
 * this Node (and the row says which). The single-pass reader the layered one replaced measured 3.75x,
 * but against node-x12 failing on the 17 corpus files with a byte-order mark (docs/benchmarks.md), so
 * the row names it as not comparable.
 */
const X12_TARGET = 1.5;
const X12_RATIO_BEFORE = 3.75;

function x12Rows(x12: X12Result, judged: boolean): { rows: Row[]; detail: Record<string, unknown> } {
  const mbps = (bytes: number, us: number | null) => (us ? bytes / us : NaN); // bytes/µs = MB/s
  const ours = x12.rows.map((r) => mbps(r.bytes, r.ours_us)).filter(Number.isFinite);
  const theirs = x12.rows.map((r) => mbps(r.bytes, r.nodeX12_us)).filter(Number.isFinite);
  const ratios = x12.rows.flatMap((r) => (r.ratio === null ? [] : [r.ratio]));
  const ratio = median(ratios);
  const oursUs = median(x12.rows.map((r) => r.ours_us));
  const readUs = median(x12.rows.map((r) => r.read_us));
  const theirsUs = median(x12.rows.flatMap((r) => (r.nodeX12_us === null ? [] : [r.nodeX12_us])));
  const node = `Node ${x12.summary.node}`;
  return {
    rows: [
      {
        figure: `271 read + answer (bundle), µs/file (median of ${x12.rows.length} files, ${x12.summary.source}, ${node}; ratio over the ${ratios.length} node-x12 parsed)`,
        value: fixed(oursUs, 2),
        baseline: `node-x12 ${fixed(theirsUs, 2)}`,
        ratio: `${fixed(ratio, 2)}x faster (the one-pass reader's ${X12_RATIO_BEFORE}x was against node-x12 failing on 17 files)`,
        target: judged ? `≥ ${X12_TARGET}x` : '',
        pass: judged ? ratio >= X12_TARGET : null,
      },
      {
        figure: `271 reading alone (readReply, no answer), µs/file (median, ${node})`,
        value: fixed(readUs, 2),
        baseline: `node-x12 ${fixed(theirsUs, 2)}`,
        ratio: `${fixed(x12.summary.medianReadRatio ?? NaN, 2)}x faster`,
        target: '',
        pass: null,
      },
      {
        figure: `271 answer's share of read + answer (median per file, ${node})`,
        value: `${fixed(x12.summary.medianAnswerShare * 100, 0)}%`,
        baseline: '',
        ratio: '',
        target: '',
        pass: null,
      },
      {
        figure: `271 read + answer (bundle), MB/s (median per file, ${node})`,
        value: fixed(median(ours), 1),
        baseline: `node-x12 ${fixed(median(theirs), 1)}`,
        ratio: `${fixed(median(ours) / median(theirs), 2)}x`,
        target: '',
        pass: null,
      },
    ],
    detail: {
      node: x12.summary.node,
      oursUs,
      readUs,
      nodeX12Us: theirsUs,
      medianRatio: ratio,
      medianReadRatio: x12.summary.medianReadRatio,
      medianAnswerShare: x12.summary.medianAnswerShare,
      oursMBps: median(ours),
      nodeX12MBps: median(theirs),
      nodeX12Failures: x12.summary.nodeX12Failures,
    },
  };
}

const TARGET_BUNDLE_BYTES = 1024 * 1024;
const SIZE_GATED: ReadonlySet<FunctionName> = new Set(['eligibility', 'cob', 'authorizer']);
/** What a cold import may add over bare node, ms (docs/benchmarks.md#cold-starts). */
const COLD_IMPORT_TARGETS: Partial<Record<FunctionName, number>> = { authorizer: 50, health: 50, eligibility: 100, cob: 100, mcp: 150, letter: 250 };

/** Cold-import targets are judged on Lambda's Node major when it ran (`judged`), else on this Node. */
function bundleRows(report: BundleReport, judged: boolean): Row[] {
  const sizeGated = (name: FunctionName) => judged && SIZE_GATED.has(name);
  return report.figures.flatMap((f) => {
    const target = judged ? COLD_IMPORT_TARGETS[f.name] : undefined;
    return [
      {
        figure: `${f.name} bundle size (${report.source})`,
        value: `${fixed(f.bytes / 1024, 0)} KiB`,
        baseline: `gzip ${fixed(f.gzipBytes / 1024, 0)} KiB`,
        ratio: `${fixed(f.bytes / TARGET_BUNDLE_BYTES, 2)} of 1 MiB`,
        target: sizeGated(f.name) ? '< 1 MiB' : '',
        pass: sizeGated(f.name) ? f.bytes < TARGET_BUNDLE_BYTES : null,
      },
      {
        figure: `${f.name} cold import, ms (median of ${report.spawns} spawns, Node ${report.node}, its own environment)`,
        value: fixed(f.coldImportMs),
        baseline: `node -e "" ${fixed(f.bareNodeMs)}`,
        ratio: `${f.ratio}x (+${fixed(f.overheadMs)} ms)`,
        target: target === undefined ? '' : `≤ +${target} ms`,
        pass: target === undefined ? null : f.overheadMs <= target,
      },
      {
        figure: `${f.name} cold import CPU time over bare node, ms (median, Node ${report.node})`,
        value: fixed(f.cpuOverheadMs),
        baseline: 'load-independent',
        ratio: '',
        target: '',
        pass: null,
      },
      ...f.sideModules.map((side) => ({
        figure: `${f.name} first use of ${side.file} (a side bundle imported alone), ms over bare node (Node ${report.node})`,
        value: fixed(side.firstUseMs),
        baseline: `${fixed(side.bytes / 1024, 0)} KiB`,
        ratio: `CPU +${fixed(side.firstUseCpuMs)} ms`,
        target: '',
        pass: null,
      })),
    ];
  });
}

function invocationRows(samples: InvocationSample[]): Row[] {
  const silent = samples.find((s) => s.mode === 'mock' && s.logLevel === 'SILENT');
  return samples.map((s) => {
    const allOk = Object.keys(s.statuses).every((status) => status === '200');
    const isTarget = s.mode === 'mock' && s.logLevel === 'INFO';
    return {
      figure: `warm ${s.mode} eligibility, inv/s (log ${s.logLevel}, median of ${s.rounds.length} rounds${allOk ? '' : `, NON-200: ${JSON.stringify(s.statuses)}`})`,
      value: String(s.perSecond),
      baseline: isTarget && silent ? `logs off ${silent.perSecond}` : s.mode === 'real' ? 'sandbox+dynalite on loopback' : '',
      ratio: isTarget && silent ? `${fixed(s.perSecond / silent.perSecond, 2)} of logs-off` : '',
      target: isTarget ? '≥ 10,000/s' : '',
      pass: isTarget ? allOk && s.perSecond >= 10_000 : allOk ? null : false,
    };
  });
}

interface RoundtripResult {
  rounds: number;
  medianNetworkMs: number;
  medianOverheadMs: number;
  p99OverheadMs: number;
  targetMs: number;
}

function roundtripRows(r: RoundtripResult): Row[] {
  return [
    {
      figure: `real eligibility: service time over network time, ms (median of ${r.rounds}; p99 ${fixed(r.p99OverheadMs)})`,
      value: fixed(r.medianOverheadMs),
      baseline: `network ${fixed(r.medianNetworkMs)}`,
      ratio: '',
      target: `< ${r.targetMs} ms`,
      pass: r.medianOverheadMs < r.targetMs,
    },
  ];
}

interface PdfResult {
  render: Record<string, { medianMs: number; p90Ms: number; runs: number }>;
  /** The printable eligibility summary (docs/api.md#printable-summary), one page each. */
  summary?: Record<string, { medianMs: number; p90Ms: number; runs: number }>;
}

function pdfRows(pdf: PdfResult): Row[] {
  const one = pdf.render['1-page']!.medianMs;
  // docs/letter.md#figures: a 2-page Latin letter ≤ 25 ms warm, CJK + Arabic names ≤ 150 ms warm.
  const targets: Record<string, number> = { '2-page': 25, '2-page CJK + Arabic names': 150 };
  const letters = Object.entries(pdf.render).map(([pages, r]) => ({
    figure: `letter PDF render ${pages}, ms (median of ${r.runs})`,
    value: fixed(r.medianMs),
    baseline: `1-page ${fixed(one)}`,
    ratio: `${fixed(r.medianMs / one, 2)}x`,
    target: targets[pages] === undefined ? '' : `≤ ${targets[pages]} ms`,
    pass: targets[pages] === undefined ? null : r.medianMs <= targets[pages]!,
  }));
  const summaries = Object.entries(pdf.summary ?? {}).map(([answer, r]) => ({
    figure: `eligibility summary PDF render, ${answer}, ms (median of ${r.runs})`,
    value: fixed(r.medianMs),
    baseline: `1-page letter ${fixed(one)}`,
    ratio: `${fixed(r.medianMs / one, 2)}x`,
    target: '',
    pass: null,
  }));
  return [...letters, ...summaries];
}

const describeBefore = (p: ProbeResult) => `${p.outcome}, ${fixed(p.ms / 1000)} s, peak ${p.peakRssMiB} MiB`;

/** bench/hostile-json.ts's report (the parts the table shows). */
interface HostileJsonReport {
  items: number;
  bodyBytes: number;
  readMs: number;
  validateMs: number;
  totalMs: number;
  outcome: string;
}

/** bench/local-server-hostile.ts's report. */
interface LocalServerHostileReport {
  targetMB: number;
  runs: Array<{ scenario: string; clients: number; bodyBytes: number; statuses: Record<string, number>; growthMB: number; peakRssMB: number }>;
}

function requestBoundRows(json: HostileJsonReport, server: LocalServerHostileReport): Row[] {
  return [
    {
      figure: `JSON list of ${json.items.toLocaleString('en-US')} items (${fixed(json.bodyBytes / 1e6, 1)} MB): read + validate CPU ms`,
      value: fixed(json.totalMs),
      baseline: `read ${fixed(json.readMs)}, validate ${fixed(json.validateMs)}`,
      ratio: json.outcome.split(',')[0]!,
      target: 'refused < 2 s CPU',
      pass: json.totalMs < 2_000,
    },
    ...server.runs.map(
      (run): Row => ({
        figure: `local server, ${run.clients} clients x ${fixed(run.bodyBytes / 1e6, 0)} MB, ${run.scenario}: memory growth MB`,
        value: fixed(run.growthMB, 0),
        baseline: `peak ${fixed(run.peakRssMB, 0)} MB; answers ${Object.entries(run.statuses)
          .map(([status, n]) => `${status}x${n}`)
          .join(', ')}`,
        ratio: '',
        target: run.scenario === 'bad-token' ? `< ${server.targetMB} MB` : '',
        pass: run.scenario === 'bad-token' ? run.growthMB < server.targetMB : null,
      }),
    ),
  ];
}

/** The dripping receiver's row: another client's webhook is not delayed, and the drip is cut at the 10 s deadline. */
function webhookRows(report: WebhookHostileReport): Row[] {
  const cutAt = Math.max(...report.hogHeldMs);
  return [
    {
      figure: `webhook of a second client while a receiver drips a byte every ${report.dripEveryMs / 1000} s: ms late`,
      value: report.calmLateMs === null ? 'never' : String(report.calmLateMs),
      baseline: `dripping deliveries held ${report.hogHeldMs.map((ms) => `${fixed(ms / 1000)} s`).join(', ')}`,
      ratio: '',
      target: '< 1 s; drip cut at 10 s',
      pass: report.calmLateMs !== null && report.calmLateMs < 1_000 && cutAt < 11_000,
    },
  ];
}

/** One row per huge upstream answer: the capped read, and the uncapped one when it was measured. */
/** bench/discovery.ts's report. */
interface DiscoveryReport {
  scenarios: { scenario: string; rounds: number; medianMs: number; upstreamCallsTotal: number; upstreamCalls: Record<string, number> }[];
}

function discoveryRows(report: DiscoveryReport): Row[] {
  return report.scenarios.map(
    (s): Row => ({
      figure: `insurance discovery, ${s.scenario}: submit → COMPLETE ms; upstream calls`,
      value: `${fixed(s.medianMs)} ms; ${s.upstreamCallsTotal}`,
      baseline: Object.entries(s.upstreamCalls)
        .map(([kind, n]) => `${kind} ${n}`)
        .join(', '),
      ratio: '',
      target: 'docs/finding-coverage.md#what-each-call-costs',
      pass: null,
    }),
  );
}

function upstreamCapRows(report: UpstreamCapsReport): Row[] {
  return report.after.map((after, i): Row => {
    const before = report.before?.[i];
    return {
      figure: `upstream answer of ${after.bodyMB} MB, ${after.case}: CPU s, RSS growth`,
      value: `${fixed(after.cpuSeconds, 2)} s, +${fixed(after.rssGrowthMiB, 0)} MiB`,
      baseline: before
        ? `uncapped: ${fixed(before.cpuSeconds, 2)} s, +${fixed(before.rssGrowthMiB, 0)} MiB, ${before.code}`
        : 'uncapped: set UPSTREAM_CAPS_BEFORE',
      ratio: after.code,
      target: '502 < 2 s CPU, growth < 64 MiB',
      pass: after.code === 'UPSTREAM_ERROR' && after.cpuSeconds < 2 && after.rssGrowthMiB < 64,
    };
  });
}

/** An insurance card read over loopback HTTP against the sandboxes: median and p95 ms per request. */
function cardRows(rows: CardBenchRow[]): Row[] {
  return rows.map((r) => ({
    figure: `insurance card, ${r.case} (${r.requestKiB} KiB): ms per request, median (p95)`,
    value: `${fixed(r.medianMs)} (${fixed(r.p95Ms)})`,
    baseline: '',
    ratio: String(r.status),
    target: '',
    pass: r.status === 200 ? null : false,
  }));
}

/** Policy-grounded letters: latency and tokens per document set against the plain letter, and the 3-page PDF with a table. */
function letterCriteriaRows(report: LetterCriteriaReport): Row[] {
  const plain = report.letters['notes only']!;
  return [
    ...Object.entries(report.letters).map(([name, l]) => ({
      figure: `letter (sandbox), ${name}: median ms, sandbox tokens in/out, estimated real input tokens`,
      value: `${fixed(l.sandboxMedianMs, 0)} ms, ${l.sandboxInputTokens}/${l.sandboxOutputTokens}, ~${l.estimatedBilledInputTokens}`,
      baseline: `notes only ${fixed(plain.sandboxMedianMs, 0)} ms, ~${plain.estimatedBilledInputTokens}`,
      ratio: `+${fixed(l.sandboxMedianMs - plain.sandboxMedianMs, 0)} ms, +${l.estimatedBilledInputTokens - plain.estimatedBilledInputTokens} tokens`,
      target: '',
      pass: null,
    })),
    {
      figure: `letter PDF render, ${report.pdf.pages} pages with a ${report.pdf.criteria}-row criteria table, ms (median of ${report.pdf.runs})`,
      value: fixed(report.pdf.medianMs),
      baseline: `without the payer sections ${fixed(report.pdf.withoutTableMedianMs)}`,
      ratio: `${fixed(report.pdf.medianMs / report.pdf.withoutTableMedianMs, 2)}x`,
      target: '',
      pass: null,
    },
  ];
}

/** Each hostile letter case: CPU seconds of the whole process and its peak growth; target 2 s of CPU. */
function letterHostileRows(figures: LetterHostileFigure[]): Row[] {
  return figures.map((f) => ({
    figure: `letter, ${f.case}: CPU s, peak growth`,
    value: f.cpuSeconds === null ? '-' : `${fixed(f.cpuSeconds, 2)} s, +${f.peakGrowthMiB} MiB`,
    baseline: '',
    ratio: f.outcome,
    target: '< 2 s CPU',
    pass: f.cpuSeconds !== null && f.cpuSeconds < 2,
  }));
}

function hostileRows(report: HostileReport): Row[] {
  const bombs = report.bombs.map((b): Row => {
    const growth = b.guard.peakGrowthMiB ?? b.guard.rssGrowthMiB ?? NaN;
    return {
      figure: `PDF bomb ${b.shape} (${b.inflatedMiB} MiB inflated): guard ms, peak growth`,
      value: `${b.guard.ms} ms, +${growth} MiB`,
      baseline: `before: load ${describeBefore(b.before)}; decode ${describeBefore(b.beforeDecode)}; worker ${describeBefore(b.worker)}`,
      ratio: b.guard.outcome,
      target: '413 < 2 s, < 128 MiB',
      pass: b.guard.outcome === '413 PAYLOAD_TOO_LARGE' && b.guard.ms < 2_000 && growth < 128,
    };
  });
  const structure = report.structure.map((s): Row => {
    const cpu = s.gate.cpuMs ?? s.gate.ms;
    return {
      figure: `fake or costly PDF ${s.shape}: gate CPU ms, peak growth`,
      value: `${cpu} ms, +${s.gate.peakGrowthMiB ?? s.gate.rssGrowthMiB ?? NaN} MiB`,
      baseline: `unguarded parse: ${describeBefore(s.unguarded)}${s.textLayer ? `; text layer ${describeBefore(s.textLayer)}` : ''}`,
      ratio: s.gate.outcome,
      target: 'answered < 2 s CPU',
      pass: cpu < 2_000,
    };
  });
  const j = report.json;
  return [
    ...bombs,
    ...structure,
    {
      figure: `strict JSON parse, 4 MiB letter body, ms (median of 7)`,
      value: fixed(j.letterStrictMs!),
      baseline: `JSON.parse ${fixed(j.letterJsonParseMs!)}`,
      ratio: `${fixed(j.letterStrictMs! / j.letterJsonParseMs!, 1)}x`,
      target: '',
      pass: null,
    },
    {
      figure: `strict JSON parse, 100k-key body (${fixed(j.keysBytes! / 1e6, 1)} MB), ms (median of 7)`,
      value: fixed(j.keysStrictMs!),
      baseline: `JSON.parse ${fixed(j.keysJsonParseMs!)}`,
      ratio: `${fixed(j.keysStrictMs! / j.keysJsonParseMs!, 1)}x`,
      target: '',
      pass: null,
    },
  ];
}

function printTable(rows: Row[]): void {
  const header: Row = { figure: 'figure', value: 'value', baseline: 'baseline', ratio: 'ratio', target: 'target', pass: null };
  const cols = ['figure', 'value', 'baseline', 'ratio', 'target'] as const;
  const width = Object.fromEntries(cols.map((c) => [c, Math.max(...[header, ...rows].map((r) => r[c].length))])) as Record<(typeof cols)[number], number>;
  const line = (r: Row, mark: string) => `${cols.map((c) => (c === 'value' ? r[c].padStart(width[c]) : r[c].padEnd(width[c]))).join(' | ')} | ${mark}`;
  console.log(line(header, 'ok'));
  console.log(`${cols.map((c) => '-'.repeat(width[c])).join('-|-')}-|---`);
  for (const r of rows) console.log(line(r, r.pass === null ? '' : r.pass ? 'yes' : 'NO'));
}

const step = (what: string) => process.stderr.write(`bench: ${what}…\n`);
const readX12 = (file: string) => JSON.parse(readFileSync(join(results, file), 'utf8')) as X12Result;
step(`Lambda's Node ${LAMBDA_NODE_MAJOR} (npx node-${process.platform}-${process.arch}@${LAMBDA_NODE_MAJOR} unless this Node is one)`);
const found = lambdaNodePath();
// Another binary to run on; when this Node is Lambda's major, its own figures are the judged ones.
const lambda = found === process.execPath ? undefined : found;
if (!found) step(`no Node ${LAMBDA_NODE_MAJOR} at hand: the x12 and cold-import targets are judged on Node ${process.version}`);
const onLambdaNode = <T>(what: string, run: (node: string) => T | Promise<T>): Promise<T | undefined> =>
  lambda === undefined
    ? Promise.resolve(undefined)
    : (async () => {
        step(`${what} on ${lambda}`);
        try {
          return await run(lambda);
        } catch (error) {
          step(
            `${what} failed on Node ${LAMBDA_NODE_MAJOR} (${error instanceof Error ? error.message.split('\n')[0] : 'error'}): judged on Node ${process.version}`,
          );
          return undefined;
        }
      })();
step(`x12 on Node ${process.version} (bench/x12.ts)`);
runScript('x12.ts', ['x12.json']);
const lambdaX12 = await onLambdaNode('x12', (node) => {
  execFileSync(node, ['--import', 'tsx', join(root, 'bench/x12.ts'), 'x12-lambda-node.json'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  return x12Rows(readX12('x12-lambda-node.json'), true);
});
const localX12 = x12Rows(readX12('x12.json'), lambdaX12 === undefined);
const x12 = { rows: [...(lambdaX12?.rows ?? []), ...localX12.rows], detail: { local: localX12.detail, lambdaNode: lambdaX12?.detail } };
step('the 271 answer per KB, 8,000 rows against 1,000 (bench/x12-scale.ts)');
const x12Scale = resultOf<X12ScaleReport>('x12-scale.ts');
step('bundles (esbuild + cold imports)');
const lambdaBundles = await onLambdaNode('cold imports', (node) => measureBundles({ node }));
const bundles = await measureBundles();
step('warm invocations');
const invocations: InvocationSample[] = [];
invocations.push(await measureInvocations('mock', { logLevel: 'INFO' }));
invocations.push(await measureInvocations('mock', { logLevel: 'SILENT' }));
invocations.push(await measureInvocations('real', { logLevel: 'INFO' }));
step('real eligibility round trip (bench/roundtrip.ts)');
const roundtrip = resultOf<RoundtripResult>('roundtrip.ts');
step('insurance card read end to end against the sandboxes (bench/card.ts)');
const card = resultOf<CardBenchRow[]>('card.ts');
step('letter PDF (bench/pdf.ts)');
const pdf = resultOf<PdfResult>('pdf.ts');
step('hostile input (bench/hostile.ts; unguarded runs are capped and killed)');
const hostile = resultOf<HostileReport>('hostile.ts');
step("letters against the payer's criteria (bench/letter-criteria.ts)");
const letterCriteria = resultOf<LetterCriteriaReport>('letter-criteria.ts');
step('hostile letter input: model output and notes (bench/letter-hostile.ts)');
const letterHostile = resultOf<LetterHostileFigure[]>('letter-hostile.ts');
step('a JSON list of millions of items (bench/hostile-json.ts)');
const hostileJson = resultOf<HostileJsonReport>('hostile-json.ts');
step('an upstream answering 400 MB and 40 MB (bench/upstream-caps.ts)');
const upstreamCaps = resultOf<UpstreamCapsReport>('upstream-caps.ts');
step('300 clients sending 6 MB bodies to the local server (bench/local-server-hostile.ts)');
const localServer = resultOf<LocalServerHostileReport>('local-server-hostile.ts');
step('a webhook receiver that drips a byte every 5 s (bench/webhook-hostile.ts; about half a minute)');
const webhookHostile = resultOf<WebhookHostileReport>('webhook-hostile.ts');

step('insurance discovery against the sandbox (bench/discovery.ts)');
const discovery = resultOf<DiscoveryReport>('discovery.ts');

step('batch eligibility (bench/batch.ts; about two minutes)');
const batch = resultOf<BatchReport>('batch.ts', ['--expose-gc']);
step('hostile and large batch requests (bench/batch-hostile.ts)');
const batchHostile = resultOf<BatchHostileReport>('batch-hostile.ts');

const rows = [
  ...x12.rows,
  ...x12ScaleRows(x12Scale),
  ...(lambdaBundles ? bundleRows(lambdaBundles, true) : []),
  ...bundleRows(bundles, lambdaBundles === undefined),
  ...invocationRows(invocations),
  ...roundtripRows(roundtrip),
  ...cardRows(card),
  ...pdfRows(pdf),
  ...hostileRows(hostile),
  ...letterCriteriaRows(letterCriteria),
  ...letterHostileRows(letterHostile),
  ...requestBoundRows(hostileJson, localServer),
  ...webhookRows(webhookHostile),
  ...upstreamCapRows(upstreamCaps),
  ...discoveryRows(discovery),
  ...batchRows(batch),
  ...batchHostileRows(batchHostile),
];
printTable(rows);
mkdirSync(results, { recursive: true });
const summary = {
  measuredAt: new Date().toISOString(),
  node: process.version,
  cpus: (await import('node:os')).cpus().length,
  rows,
  x12: x12.detail,
  x12Scale,
  bundles,
  lambdaBundles,
  invocations,
  roundtrip,
  card,
  pdf: pdf.render,
  hostile,
  letterHostile,
  letterCriteria,
  hostileJson,
  localServer,
  webhookHostile,
  upstreamCaps,
  discovery,
  batch,
  batchHostile,
};
writeFileSync(join(results, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log(`\nwritten: bench/results/summary.json (${lambdaX12 ? 'x12.json, x12-lambda-node.json' : 'x12.json'}, pdf.json by their scripts)`);
