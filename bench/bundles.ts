/**
 * Function bundles (not a test): each function built the way infra/deploy/stack.ts has NodejsFunction
 * build it (bundleOptions in infra/deploy/functions.ts: esbuild, ESM, node22, module/main fields, the
 * createRequire banner, the node:http alias, AWS SDK bundled; minified here as in the stack), then
 * its size and the cold start of a fresh `node` importing it versus a bare `node -e ""` (median of N
 * spawns each, interleaved so machine noise hits both alike). Both run with the function's own
 * environment as the stack sets it (functionEnvironment below): NODE_OPTIONS=--enable-source-maps
 * included, which makes Node read the bundle's source map at import, as it does on Lambda.
 *
 * Source: a fresh esbuild build into a temp dir by default. With BENCH_BUNDLES=cdk.out the bundles
 * come from `npx cdk synth` output instead (cdk.out/asset.*), matched to functions via the template;
 * that output is only as current as the last synth, hence not the default.
 *
 * Run: npx tsx bench/bundles.ts   → prints and writes bench/results/bundles.json
 * Exported: measureBundles() for bench/run.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
// The functions the stack deploys, so a new handler is measured without a second list.
import { bundleOptions, FUNCTION_NAMES, type FunctionName, sideBundleOptions, sideBundlesOf } from '../infra/deploy/functions.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface BundleFigure {
  name: FunctionName;
  bytes: number;
  gzipBytes: number;
  /** Median wall time of `node` importing the bundle, spawn to exit. */
  coldImportMs: number;
  /** Median wall time of `node -e ""`, measured interleaved with the above. */
  bareNodeMs: number;
  /** coldImportMs − bareNodeMs: what the bundle adds to a cold start. */
  overheadMs: number;
  /** coldImportMs / bareNodeMs. */
  ratio: number;
  /**
   * Median CPU time (user + system) the import adds over bare node. Wall time on a shared machine
   * mostly measures the other processes; CPU time is what this bundle itself costs.
   */
  cpuOverheadMs: number;
  /**
   * The function's side modules (docs/deployment.md#side-bundles), each imported alone by a fresh
   * `node`: what the first request that needs one waits for, once per container (an upper bound: the
   * handler has already loaded the built-ins they share).
   */
  sideModules: SideModuleFigure[];
}

export interface SideModuleFigure {
  file: string;
  bytes: number;
  /** Median wall time its import adds over bare node. */
  firstUseMs: number;
  /** Median CPU time its import adds over bare node. */
  firstUseCpuMs: number;
}

export interface BundleReport {
  source: 'esbuild (stack options)' | 'cdk.out';
  /** The Node version whose cold imports were measured. */
  node: string;
  spawns: number;
  figures: BundleFigure[];
}

const AWSLAMBDA_STAND_IN = 'globalThis.awslambda ??= { streamifyResponse: (f) => f, HttpResponseStream: { from: (s) => s } };';

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const round = (n: number, places = 1): number => Math.round(n * 10 ** places) / 10 ** places;

const sideModulesOf = (name: FunctionName) => sideBundlesOf(name).filter((side) => side.kind === 'module');

async function buildAll(outDir: string): Promise<Record<FunctionName, string>> {
  const out = {} as Record<FunctionName, string>;
  for (const name of FUNCTION_NAMES) {
    const outfile = join(outDir, name, 'index.mjs');
    await build({ ...bundleOptions(name), minify: true, sourcemap: true, outfile, logLevel: 'silent' });
    // Its side modules beside it, as the stack's afterBundling hook builds them.
    for (const side of sideModulesOf(name)) {
      await build({ ...sideBundleOptions(name, side), minify: true, sourcemap: true, outfile: join(dirname(outfile), side.bundledAs), logLevel: 'silent' });
    }
    out[name] = outfile;
  }
  return out;
}

function fromCdkOut(): Record<FunctionName, string> {
  const dir = join(root, 'cdk.out');
  const template = JSON.parse(readFileSync(join(dir, 'EligibilityService.template.json'), 'utf8')) as {
    Resources: Record<string, { Type: string; Properties: { Description?: string }; Metadata?: Record<string, string> }>;
  };
  const out = {} as Record<FunctionName, string>;
  for (const resource of Object.values(template.Resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    const name = resource.Properties.Description?.replace('Eligibility service: ', '') as FunctionName;
    const asset = resource.Metadata?.['aws:asset:path'];
    if (FUNCTION_NAMES.includes(name) && asset) out[name] = join(dir, asset, 'index.mjs');
  }
  for (const name of FUNCTION_NAMES) {
    if (!out[name] || !existsSync(out[name])) throw new Error(`cdk.out has no bundle for ${name}; run npx cdk synth`);
  }
  return out;
}

/** The child prints its own CPU time (µs) as its last stdout line. */
const REPORT_CPU = 'process.stdout.write("\\n" + JSON.stringify(process.cpuUsage()));';

/** The recorded template of the stack (test/infra/stack.test.ts holds the stack to it). */
const TEMPLATE = join(root, 'test/infra/fixtures/stack-template.default.json');

/** What the template's references (`Ref`, `Fn::GetAtt`) stand for, by the variable's name. */
const STAND_INS: readonly [RegExp, string][] = [
  [/_ARN$/, 'arn:aws:secretsmanager:us-east-1:000000000000:secret:bench-AbCdEf'],
  [/_URL$/, 'https://sqs.us-east-1.amazonaws.com/000000000000/bench'],
  [/_TABLE$/, 'bench'],
];

/**
 * A function's environment as the stack gives it (the recorded template: NODE_OPTIONS, Powertools'
 * settings and the function's own variables), each reference to a resource replaced by a stand-in
 * of its form, plus the region Lambda sets. A function that reads its configuration at import (the
 * batch functions) fails without it; NODE_OPTIONS=--enable-source-maps makes Node read the bundle's
 * source map at import.
 */
export function functionEnvironment(name: FunctionName): Record<string, string> {
  const template = JSON.parse(readFileSync(TEMPLATE, 'utf8')) as {
    Resources: Record<string, { Type: string; Properties: { Description?: string; Environment?: { Variables?: Record<string, unknown> } } }>;
  };
  const fn = Object.values(template.Resources).find((r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Description === `Eligibility service: ${name}`);
  if (!fn) throw new Error(`the recorded template has no function ${name}`);
  const variables = Object.entries(fn.Properties.Environment?.Variables ?? {}).map(([key, value]) => {
    if (typeof value === 'string') return [key, value];
    const standIn = STAND_INS.find(([pattern]) => pattern.test(key));
    if (!standIn) throw new Error(`no stand-in for ${name}'s ${key}`);
    return [key, standIn[1]];
  });
  return { AWS_REGION: 'us-east-1', ...Object.fromEntries(variables) };
}

function spawnMs(node: string, args: string[], environment: Record<string, string>): { wall: number; cpu: number } {
  const started = performance.now();
  const run = spawnSync(node, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, ...environment } });
  const wall = performance.now() - started;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${run.stderr.toString().slice(0, 500)}`);
  const usage = JSON.parse(run.stdout.toString().trim().split('\n').pop() ?? '{}') as { user?: number; system?: number };
  return { wall, cpu: ((usage.user ?? 0) + (usage.system ?? 0)) / 1000 };
}

/**
 * A fresh `node` importing `file` against a bare `node -e ""`, interleaved, `spawns` times each after one
 * spawn that pays for the disk cache: medians of wall and CPU time. Importing (not just parsing) runs each
 * module's top level, as a Lambda cold start does. The Lambda runtime's `awslambda` global (streamed
 * handlers call awslambda.streamifyResponse at import) is stood in by a pass-through, which costs nothing
 * measurable.
 */
function importCost(node: string, file: string, environment: Record<string, string>, spawns: number) {
  const importArgs = ['--input-type=module', '-e', `${AWSLAMBDA_STAND_IN} await import(${JSON.stringify(pathToFileURL(file).href)}); ${REPORT_CPU}`];
  spawnMs(node, importArgs, environment);
  const bundle: number[] = [];
  const bare: number[] = [];
  const bundleCpu: number[] = [];
  const bareCpu: number[] = [];
  for (let i = 0; i < spawns; i++) {
    const b = spawnMs(node, ['-e', REPORT_CPU], environment);
    bare.push(b.wall);
    bareCpu.push(b.cpu);
    const m = spawnMs(node, importArgs, environment);
    bundle.push(m.wall);
    bundleCpu.push(m.cpu);
  }
  const importMs = median(bundle);
  const bareMs = median(bare);
  return { importMs, bareMs, overheadMs: importMs - bareMs, cpuOverheadMs: median(bundleCpu) - median(bareCpu) };
}

/** `node`: the Node binary whose cold imports are measured (default: this one); bench/run.ts also passes Lambda's major. */
export async function measureBundles(options: { spawns?: number; source?: 'esbuild' | 'cdk.out'; node?: string } = {}): Promise<BundleReport> {
  const spawns = options.spawns ?? 10;
  const node = options.node ?? process.execPath;
  const version = node === process.execPath ? process.version : execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const useCdkOut = (options.source ?? (process.env.BENCH_BUNDLES === 'cdk.out' ? 'cdk.out' : 'esbuild')) === 'cdk.out';
  const tmp = mkdtempSync(join(tmpdir(), 'bundles-bench-'));
  try {
    const bundles = useCdkOut ? fromCdkOut() : await buildAll(tmp);
    const figures: BundleFigure[] = [];
    for (const name of FUNCTION_NAMES) {
      const file = bundles[name];
      const environment = functionEnvironment(name);
      const handler = importCost(node, file, environment, spawns);
      const sideModules = sideModulesOf(name).map((side) => {
        const sideFile = join(dirname(file), side.bundledAs);
        const cost = importCost(node, sideFile, environment, spawns);
        return { file: side.bundledAs, bytes: statSync(sideFile).size, firstUseMs: round(cost.overheadMs), firstUseCpuMs: round(cost.cpuOverheadMs) };
      });
      figures.push({
        name,
        bytes: statSync(file).size,
        gzipBytes: gzipSync(readFileSync(file)).length,
        coldImportMs: round(handler.importMs),
        bareNodeMs: round(handler.bareMs),
        overheadMs: round(handler.overheadMs),
        ratio: round(handler.importMs / handler.bareMs, 2),
        cpuOverheadMs: round(handler.cpuOverheadMs),
        sideModules,
      });
    }
    return { source: useCdkOut ? 'cdk.out' : 'esbuild (stack options)', node: version, spawns, figures };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = await measureBundles();
  for (const f of report.figures) {
    console.log(
      `${f.name.padEnd(12)} ${(f.bytes / 1024).toFixed(0).padStart(6)} KiB (gzip ${(f.gzipBytes / 1024).toFixed(0)} KiB)   import ${f.coldImportMs} ms vs bare ${f.bareNodeMs} ms (+${f.overheadMs} ms, ${f.ratio}x; CPU +${f.cpuOverheadMs} ms)`,
    );
    for (const side of f.sideModules) {
      console.log(`${''.padEnd(12)} + ${side.file} ${(side.bytes / 1024).toFixed(0)} KiB, first use +${side.firstUseMs} ms (CPU +${side.firstUseCpuMs} ms)`);
    }
  }
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/bundles.json'), `${JSON.stringify({ measuredAt: new Date().toISOString(), ...report }, null, 2)}\n`);
}
