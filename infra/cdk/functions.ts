import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { LETTER_BUDGET_MS } from '../../lib/config/index.js';
import { SHIPPED_MODULES } from './shipped-modules.js';

/**
 * The Lambda functions the stack deploys, each `functions/<name>/index.ts` exporting `handler`,
 * and what each is sized for (memory also buys CPU, which shortens cold starts). One list, read by
 * the stack, its tests and bench/bundles.ts. docs/deployment.md#functions
 */

export interface FunctionSizing {
  memoryMiB: number;
  timeoutSeconds: number;
}

/** The letter's budget for the model (one retry inside it); the gateway streams, so it may pass 29 s. */
export const LETTER_BUDGET_SECONDS = LETTER_BUDGET_MS / 1000;

export const FUNCTIONS = {
  // Hashes a token and reads one small secret; 256 MiB keeps the cold start short at minimal cost.
  // 5 s: API Gateway waits at most 10 s for an authorizer, and a slow token store must fail fast.
  authorizer: { memoryMiB: 256, timeoutSeconds: 5 },
  // Builds a 270 and parses a 271 (small strings); 512 MiB is for CPU during SDK-heavy cold starts.
  // 29 s: the upstream budget is 25 s and the buffered REST integration cuts the request at 29 s.
  eligibility: { memoryMiB: 512, timeoutSeconds: 29 },
  cob: { memoryMiB: 512, timeoutSeconds: 29 },
  // The eligibility check behind a FHIR Bundle in and out (docs/fhir.md): the same sizing.
  fhir: { memoryMiB: 512, timeoutSeconds: 29 },
  // Payer directory search: one small upstream GET, cached per container for an hour.
  payers: { memoryMiB: 256, timeoutSeconds: 10 },
  // MCP tools run the eligibility, COB and payer routes in process: sized and timed like eligibility.
  mcp: { memoryMiB: 512, timeoutSeconds: 29 },
  // Holds a PDF of up to 4 MiB (base64 + decoded), loads pdf-lib with fontkit and subsets four
  // DejaVu faces (~2.5 MB of TTF); 1536 MiB avoids GC pressure and gives ~1 vCPU for layout.
  // 125 s: the 120 s letter budget plus time to write the answer; the streamed integration waits 130 s.
  letter: { memoryMiB: 1536, timeoutSeconds: LETTER_BUDGET_SECONDS + 5 },
  // The batch routes (docs/batch.md): submit validates up to 10,000 bodies and writes them with
  // their queue messages (a 10,000-item submit does ~400 table writes and ~1,000 queue sends).
  batch: { memoryMiB: 1024, timeoutSeconds: 29 },
  // One item at a time through the eligibility route, up to 10 per invocation one after the other:
  // 10 × the 25 s upstream budget in the worst case, plus the table writes.
  'batch-worker': { memoryMiB: 512, timeoutSeconds: 300 },
  // One signed POST per finished batch, 10 s timeout.
  'batch-webhook': { memoryMiB: 256, timeoutSeconds: 30 },
  // Unknown paths (404), wrong methods on known paths (405 + Allow) and CORS preflight: formats a
  // small answer and touches nothing else.
  'not-found': { memoryMiB: 256, timeoutSeconds: 5 },
  // The unauthenticated GET routes: a fixed status document, and the OpenAPI document bundled in.
  health: { memoryMiB: 256, timeoutSeconds: 5 },
  openapi: { memoryMiB: 256, timeoutSeconds: 5 },
  // The API reference page and the 3.6 MB Scalar script it loads (read from assets/ beside the bundle).
  docs: { memoryMiB: 256, timeoutSeconds: 5 },
} as const satisfies Record<string, FunctionSizing>;

export type FunctionName = keyof typeof FUNCTIONS;
export const FUNCTION_NAMES = Object.keys(FUNCTIONS) as FunctionName[];

/**
 * What esbuild is told besides the usual options, for every function: by the stack (NodejsFunction)
 * and through bundleOptions below (the benchmark, the bundle tests). docs/deployment.md#cold-starts
 */
const NODE_HTTP_SHIM = fileURLToPath(new URL('shims/node-http.cjs', import.meta.url));

export const BUNDLING = {
  /** ESM bundles still contain CommonJS dependencies that call require(). */
  banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  /** Imports of node:http resolve to a module that takes it without an ES import facade (the shim says why). */
  alias: { 'node:http': NODE_HTTP_SHIM, http: NODE_HTTP_SHIM } as Readonly<Record<string, string>>,
};

/**
 * esbuild's options for a function's bundle, as NodejsFunction builds it in the stack (which passes
 * the same settings in its own terms), for the code that runs esbuild itself: bench/bundles.ts adds
 * minification and source maps; tests inspect what a bundle contains.
 */
export function bundleOptions(name: FunctionName): BuildOptions {
  return {
    entryPoints: [fileURLToPath(new URL(`../../functions/${name}/index.ts`, import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    banner: { js: BUNDLING.banner },
    alias: { ...BUNDLING.alias },
    external: [...((SHIPPED_MODULES as Partial<Record<FunctionName, readonly string[]>>)[name] ?? [])],
  };
}

/**
 * Worker threads a function starts, each bundled as a file of its own beside the handler
 * (docs/deployment.md#worker-threads): esbuild does not follow `new Worker(...)`, so each worker
 * entry is a second build with the function's own options. The letter parses untrusted notes in
 * lib/letter/intake/pdf-worker.mjs (docs/security.md#parsing-in-isolation), found at run time as
 * pdf-worker.mjs beside the handler.
 */
export interface WorkerEntry {
  /** The entry, from the project root. */
  entry: string;
  /** Its bundle's file name, beside the handler's. */
  bundledAs: string;
}

export const WORKERS = {
  letter: [{ entry: 'lib/letter/intake/pdf-worker.mjs', bundledAs: 'pdf-worker.mjs' }],
} as const satisfies Partial<Record<FunctionName, readonly WorkerEntry[]>>;

/** A function's worker entries (none for most). */
export const workersOf = (name: FunctionName): readonly WorkerEntry[] => (WORKERS as Partial<Record<FunctionName, readonly WorkerEntry[]>>)[name] ?? [];

/** esbuild's options for one worker of a function: the function's own, with the worker as the entry. */
export function workerBundleOptions(name: FunctionName, worker: WorkerEntry): BuildOptions {
  return { ...bundleOptions(name), entryPoints: [fileURLToPath(new URL(`../../${worker.entry}`, import.meta.url))] };
}

/**
 * Shell commands (the CDK's afterBundling hook) that build a function's workers into `outputDir`
 * with the project's own esbuild and the same options as the handler (minified, with source maps,
 * as the stack builds it). docs/deployment.md#worker-threads
 */
export function workerBuildCommands(name: FunctionName, inputDir: string, outputDir: string): string[] {
  const options = bundleOptions(name);
  const flags = [
    '--bundle',
    '--platform=node',
    '--format=esm',
    `--target=${String(options.target)}`,
    `--main-fields=${(options.mainFields ?? []).join(',')}`,
    `--banner:js=${BUNDLING.banner}`,
    ...Object.entries(options.alias ?? {}).map(([from, to]) => `--alias:${from}=${to}`),
    ...(options.external ?? []).map((pkg) => `--external:${pkg}`),
    '--minify',
    '--sourcemap',
  ];
  const quote = (arg: string) => `"${arg.replace(/(["\\$`])/g, '\\$1')}"`;
  return workersOf(name).map((worker) =>
    [join(inputDir, 'node_modules', '.bin', 'esbuild'), join(inputDir, worker.entry), ...flags, `--outfile=${join(outputDir, worker.bundledAs)}`]
      .map(quote)
      .join(' '),
  );
}

/** How long API Gateway waits for the streamed letter integration (REST streaming allows up to 15 min). */
export const LETTER_INTEGRATION_TIMEOUT_SECONDS = FUNCTIONS.letter.timeoutSeconds + 5;
