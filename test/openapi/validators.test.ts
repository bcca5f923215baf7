/**
 * lib/validation/validators.generated.ts: what `npm run openapi` compiles from the schemas now, and
 * the reason it exists: a function bundle that validates requests carries no JSON Schema compiler.
 * docs/api.md#validation
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { VALIDATORS_PATH, validatorsModule } from '../../infra/openapi/validators.js';
import { bundleOptions } from '../../infra/cdk/functions.js';

describe('compiled request validators', () => {
  it('are what `npm run openapi` generates from the schemas now (run it after changing a schema)', () => {
    if (validatorsModule() !== readFileSync(VALIDATORS_PATH, 'utf8')) {
      throw new Error('lib/validation/validators.generated.ts is stale: run `npm run openapi` and commit the result');
    }
  });

  it('keep ajv’s compiler out of the eligibility bundle (only its small runtime helper ships)', async () => {
    const result = await build({ ...bundleOptions('eligibility'), write: false, metafile: true, logLevel: 'silent' });
    // Paths from node_modules/ on (a worktree may reach node_modules through a link elsewhere).
    const ajvInputs = Object.keys(result.metafile.inputs)
      .filter((path) => /node_modules\/ajv(-formats)?\//.test(path))
      .map((path) => path.replace(/^.*?node_modules\//, 'node_modules/'));
    expect(ajvInputs).toEqual(['node_modules/ajv/dist/runtime/ucs2length.js']);
  }, 60_000);
});
