/**
 * The bundling settings every function shares (infra/deploy/functions.ts BUNDLING, used by the stack and
 * bench/bundles.ts): node:http reaches the bundle through the shim, never as an ES import, and the
 * shim is node:http itself; source maps carry no sources' text; each bundle carries only what its
 * function runs. docs/deployment.md#cold-starts
 */
import { describe, expect, it } from '@jest/globals';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { BUNDLING, bundleOptions, type FunctionName, SIDE_BUNDLES, sideBundleOptions } from '../../infra/deploy/functions.js';

const require = createRequire(import.meta.url);

describe('function bundling', () => {
  it('the node:http shim is the built-in module itself', () => {
    for (const name of ['node:http', 'http']) expect(require(BUNDLING.alias[name]!)).toBe(require('node:http'));
  });

  it('a function that bundles the AWS SDK keeps no ES import of node:http and takes it from the shim', async () => {
    const { alias: _alias, ...withoutAlias } = bundleOptions('eligibility');
    const bundled = (aliased: boolean) =>
      build({ ...(aliased ? bundleOptions('eligibility') : withoutAlias), write: false, logLevel: 'silent' }).then((result) => result.outputFiles[0]!.text);
    const esImportOfHttp = /^import [^;]* from "(node:)?http";/m;
    const [before, after] = await Promise.all([bundled(false), bundled(true)]);
    expect(before).toMatch(esImportOfHttp); // the SDK does import it: without the alias the rule below would be empty
    expect(after).not.toMatch(esImportOfHttp);
    expect(after).toContain('infra/deploy/shims/node-http.cjs');
  }, 60_000);

  it('a source map keeps names and positions, not the sources, which Node would parse at every cold start', async () => {
    const result = await build({ ...bundleOptions('health'), sourcemap: 'external', outfile: 'out/index.mjs', write: false, logLevel: 'silent' });
    const map = JSON.parse(result.outputFiles.find((file) => file.path.endsWith('.map'))!.text) as {
      sources: string[];
      mappings: string;
      sourcesContent?: unknown;
    };
    expect(map.sources.length).toBeGreaterThan(0);
    expect(map.mappings.length).toBeGreaterThan(0);
    expect(map.sourcesContent).toBeUndefined();
  }, 60_000);

  /**
   * The input files whose code is in a function's bundle (repository-relative paths, node_modules
   * included). esbuild also reads the modules a door (lib/<folder>/index.ts) re-exports, and leaves out
   * those nothing uses: they are in the metafile's inputs with no byte in the output, and cost nothing
   * at a cold start, so only the inputs that put bytes into the bundle count.
   */
  const inputsOf = async (name: FunctionName, options = bundleOptions(name)): Promise<string[]> => {
    const result = await build({ ...options, write: false, metafile: true, logLevel: 'silent', outdir: 'out' });
    const output = Object.values(result.metafile.outputs).find((entry) => entry.entryPoint !== undefined)!;
    return Object.entries(output.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path);
  };
  const HEAVY = [/^lib\/validation\//, /@aws-lambda-powertools\/idempotency/, /@aws-sdk\//, /^lib\/http\/idempotency\.ts$/];

  it.each(['health', 'openapi', 'docs', 'not-found'] as const)(
    '%s reads no body: its bundle has no validators, no Idempotency-Key store and no AWS SDK',
    async (name) => {
      const inputs = await inputsOf(name);
      expect(inputs).toContain('lib/http/pipeline-core.ts');
      expect(inputs.filter((input) => HEAVY.some((pattern) => pattern.test(input)))).toEqual([]);
    },
    60_000,
  );

  it('the payer directory and MCP take no Idempotency-Key: their bundles have no Idempotency-Key store', async () => {
    for (const name of ['payers', 'mcp'] as const) {
      const inputs = await inputsOf(name);
      expect({ name, store: inputs.filter((input) => /idempotency/.test(input)) }).toEqual({ name, store: [] });
    }
    // The POST routes do take one.
    expect(await inputsOf('eligibility')).toContain('lib/http/idempotency.ts');
  }, 60_000);

  it('the code that draws PDFs carries fontkit without its WOFF2 decoder: no bundled face is WOFF2 (lib/pdf/font-files.ts)', async () => {
    const faces = (await import('../../lib/pdf/index.js')).ALL_FONT_FILES.map((file) => file.path);
    expect(faces.filter((path) => /\.woff2$/i.test(path))).toEqual([]);
    // The letter's handler, and eligibility's printout (a side bundle beside its handler, SIDE_BUNDLES).
    const printout = SIDE_BUNDLES.eligibility[0];
    for (const [name, inputs] of [
      ['letter', await inputsOf('letter')],
      ['eligibility printout', await inputsOf('eligibility', sideBundleOptions('eligibility', printout))],
    ] as const) {
      expect(inputs.some((input) => /node_modules\/fontkit\//.test(input))).toBe(true);
      expect({ name, brotli: inputs.filter((input) => /node_modules\/brotli\//.test(input)) }).toEqual({ name, brotli: [] });
    }
    expect(() => require(BUNDLING.alias['brotli/decompress.js']!)(new Uint8Array(1), 1)).toThrow(/WOFF2/);
  }, 60_000);
});
