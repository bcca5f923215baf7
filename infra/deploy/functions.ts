import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { type FunctionName, functionEntry } from '../../lib/http/index.js';
import { SHIPPED_MODULES } from './shipped-modules.js';

// The functions the stack deploys, their routes and sizing: the one function table (lib/http/functions.ts),
// which the route table, the local server and the bench read too. docs/deployment.md#functions
export { FUNCTION_NAMES, FUNCTION_TABLE as FUNCTIONS, type FunctionName, functionEntry, LETTER_BUDGET_SECONDS } from '../../lib/http/index.js';

/**
 * What esbuild is told besides the usual options, for every function: by the stack (NodejsFunction)
 * and through bundleOptions below (the benchmark, the bundle tests). docs/deployment.md#cold-starts
 */
const NODE_HTTP_SHIM = fileURLToPath(new URL('shims/node-http.cjs', import.meta.url));
const BROTLI_SHIM = fileURLToPath(new URL('shims/brotli-decompress.cjs', import.meta.url));

export const BUNDLING = {
  /** ESM bundles still contain CommonJS dependencies that call require(). */
  banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  /**
   * Imports of node:http resolve to a module that takes it without an ES import facade, and fontkit's
   * WOFF2 decoder (brotli) to a stand-in that refuses: no bundled face is WOFF2 (each shim says why).
   */
  alias: { 'node:http': NODE_HTTP_SHIM, http: NODE_HTTP_SHIM, 'brotli/decompress.js': BROTLI_SHIM } as Readonly<Record<string, string>>,
  /**
   * Source maps without the sources' text: every function runs with --enable-source-maps, so Node
   * reads and parses the map at import. Names and positions (what a stack trace needs) stay; the text
   * was two thirds to three quarters of each map.
   */
  sourcesContent: false,
};

/**
 * esbuild's options for a function's bundle, as NodejsFunction builds it in the stack (which passes
 * the same settings in its own terms), for the code that runs esbuild itself: bench/bundles.ts adds
 * minification and source maps; tests inspect what a bundle contains.
 */
export function bundleOptions(name: FunctionName): BuildOptions {
  return {
    entryPoints: [fileURLToPath(new URL(`../../${functionEntry(name)}`, import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    banner: { js: BUNDLING.banner },
    alias: { ...BUNDLING.alias },
    sourcesContent: BUNDLING.sourcesContent,
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
    `--sources-content=${String(BUNDLING.sourcesContent)}`,
  ];
  const quote = (arg: string) => `"${arg.replace(/(["\\$`])/g, '\\$1')}"`;
  return workersOf(name).map((worker) =>
    [join(inputDir, 'node_modules', '.bin', 'esbuild'), join(inputDir, worker.entry), ...flags, `--outfile=${join(outputDir, worker.bundledAs)}`]
      .map(quote)
      .join(' '),
  );
}
