import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { type FunctionName, functionEntry } from '../../lib/http/index.js';
import { bundledName, type FontFile } from '../../lib/pdf/index.js';
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
  /**
   * Tells the code it runs from a bundle, so each import of a side bundle names the file beside the
   * handler instead of the module (SIDE_BUNDLES below); unset in source (tsx, Jest).
   */
  define: { 'import.meta.sideBundles': 'true' } as Readonly<Record<string, string>>,
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
    define: { ...BUNDLING.define },
    external: [...((SHIPPED_MODULES as Partial<Record<FunctionName, readonly string[]>>)[name] ?? [])],
  };
}

/**
 * Code a function keeps out of its handler's bundle, each a bundle of its own beside the handler
 * (docs/deployment.md#side-bundles), built by a second esbuild run with the function's own options:
 * - a `worker`: the entry of a worker thread the handler starts (esbuild does not follow
 *   `new Worker(...)`). The letter parses untrusted notes in lib/letter/intake/pdf-worker.mjs
 *   (docs/security.md#parsing-in-isolation), found at run time as pdf-worker.mjs beside the handler.
 * - a `module`: code only some requests need, imported on first use instead of parsed at every cold
 *   start. The import site names the bundle only when `import.meta.sideBundles` is set (BUNDLING.define);
 *   in source (tsx, Jest) it imports the module itself:
 *   `import.meta.sideBundles ? import(new URL('./printout.mjs', import.meta.url).href) : import('./printout.js')`.
 *   esbuild drops the branch not taken, and with it the module's code.
 * test/infra/side-bundles.test.ts holds each function's table to what its bundle asks for.
 */
export interface SideBundle {
  kind: 'worker' | 'module';
  /** The entry, from the project root. */
  entry: string;
  /** Its bundle's file name, beside the handler's. */
  bundledAs: string;
}

/** The printable eligibility summary: pdf-lib, fontkit and lib/pdf, 0.7 MiB (docs/api.md#printable-summary). */
const PRINTOUT: SideBundle = { kind: 'module', entry: 'lib/eligibility/printout.ts', bundledAs: 'printout.mjs' };
/** The Anthropic SDK, 0.4 MiB, loaded with a function's first message (lib/upstream/anthropic.ts). */
const ANTHROPIC_SDK: SideBundle = { kind: 'module', entry: 'lib/upstream/anthropic-sdk.ts', bundledAs: 'anthropic-sdk.mjs' };

export const SIDE_BUNDLES = {
  eligibility: [PRINTOUT],
  letter: [{ kind: 'worker', entry: 'lib/letter/intake/pdf-worker.mjs', bundledAs: 'pdf-worker.mjs' }, ANTHROPIC_SDK],
  'insurance-card': [ANTHROPIC_SDK],
  mcp: [ANTHROPIC_SDK],
} as const satisfies Partial<Record<FunctionName, readonly SideBundle[]>>;

/** A function's side bundles (none for most). */
export const sideBundlesOf = (name: FunctionName): readonly SideBundle[] => (SIDE_BUNDLES as Partial<Record<FunctionName, readonly SideBundle[]>>)[name] ?? [];

/** esbuild's options for one side bundle of a function: the function's own, with the side bundle as the entry. */
export function sideBundleOptions(name: FunctionName, side: SideBundle): BuildOptions {
  return { ...bundleOptions(name), entryPoints: [fileURLToPath(new URL(`../../${side.entry}`, import.meta.url))] };
}

/**
 * Shell commands (the CDK's afterBundling hook) that build a function's side bundles into `outputDir`
 * with the project's own esbuild and the same options as the handler (minified, with source maps,
 * as the stack builds it). docs/deployment.md#side-bundles
 */
export function sideBundleBuildCommands(name: FunctionName, inputDir: string, outputDir: string): string[] {
  const options = bundleOptions(name);
  const flags = [
    '--bundle',
    '--platform=node',
    '--format=esm',
    `--target=${String(options.target)}`,
    `--main-fields=${(options.mainFields ?? []).join(',')}`,
    `--banner:js=${BUNDLING.banner}`,
    ...Object.entries(options.alias ?? {}).map(([from, to]) => `--alias:${from}=${to}`),
    ...Object.entries(options.define ?? {}).map(([name, value]) => `--define:${name}=${value}`),
    ...(options.external ?? []).map((pkg) => `--external:${pkg}`),
    '--minify',
    '--sourcemap',
    `--sources-content=${String(BUNDLING.sourcesContent)}`,
  ];
  const quote = (arg: string) => `"${arg.replace(/(["\\$`])/g, '\\$1')}"`;
  return sideBundlesOf(name).map((side) =>
    [join(inputDir, 'node_modules', '.bin', 'esbuild'), join(inputDir, side.entry), ...flags, `--outfile=${join(outputDir, side.bundledAs)}`]
      .map(quote)
      .join(' '),
  );
}

/**
 * Shell commands (the CDK's afterBundling hook) that copy a function's font files into `fonts/` beside
 * its bundle, where lib/pdf/fonts.ts looks for them before node_modules (docs/letter.md#fonts).
 */
export function fontCopyCommands(fonts: readonly FontFile[], inputDir: string, outputDir: string): string[] {
  if (fonts.length === 0) return [];
  return [`mkdir -p "${outputDir}/fonts"`, ...fonts.map((f) => `cp "${join(inputDir, 'node_modules', f.pkg, f.path)}" "${outputDir}/fonts/${bundledName(f)}"`)];
}
