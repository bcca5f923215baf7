/**
 * The bundling settings every function shares (infra/cdk/functions.ts BUNDLING, used by the stack and
 * bench/bundles.ts): node:http reaches the bundle through the shim, never as an ES import, and the
 * shim is node:http itself. docs/deployment.md#cold-starts
 */
import { describe, expect, it } from '@jest/globals';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { BUNDLING, bundleOptions } from '../../infra/cdk/functions.js';

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
    expect(after).toContain('infra/cdk/shims/node-http.cjs');
  }, 60_000);
});
