import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { type FunctionName, functionEntry } from '../../lib/http/functions.js';
import { SHIPPED_MODULES } from './shipped-modules.js';

// The functions the stack deploys, their routes and sizing: the one function table (lib/http/functions.ts),
// which the route table, the local server and the bench read too. docs/deployment.md#functions
export { FUNCTION_NAMES, FUNCTION_TABLE as FUNCTIONS, type FunctionName, functionEntry, LETTER_BUDGET_SECONDS } from '../../lib/http/functions.js';

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
