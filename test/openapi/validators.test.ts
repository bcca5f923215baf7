/**
 * lib/validation/validators.generated.ts: what `npm run openapi` compiles from the schemas now, and
 * the reason it exists: a function bundle that validates requests carries no JSON Schema compiler.
 * docs/api.md#validation
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { VALIDATORS_PATH, validatorsModule } from '../../infra/tools/openapi/validators.js';
import { bundleOptions } from '../../infra/deploy/functions.js';
import { compiledSchemas } from '../../lib/validation/validators.generated.js';

const openapi = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as { components: { schemas: Record<string, unknown> } };

/** Keys that explain a schema without constraining a value. */
const ANNOTATIONS = new Set(['$id', 'title', 'description', 'examples', '$comment']);

/** A schema's constraints alone: annotations dropped, `$ref`s into openapi.json resolved. */
function constraints(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(constraints);
  if (typeof schema !== 'object' || schema === null) return schema;
  const ref = (schema as { $ref?: string }).$ref;
  if (ref) return constraints(openapi.components.schemas[ref.replace('#/components/schemas/', '')]);
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => !ANNOTATIONS.has(key))
      .map(([key, value]) => [key, constraints(value)]),
  );
}

const DOCUMENTED = { eligibility: 'EligibilityRequest', cob: 'CobRequest', letter: 'LetterRequest' } as const;

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

  it.each(Object.entries(DOCUMENTED))(
    'and openapi.json hold the same constraints for %s (the document promises no limit the validator does not hold)',
    (name, documented) => {
      const compiled = compiledSchemas[name as keyof typeof DOCUMENTED];
      expect(compiled).toBeDefined();
      expect(constraints(openapi.components.schemas[documented])).toEqual(constraints(compiled));
    },
  );

  it('would tell a documented limit the validator lacks (the r3 member_id case)', () => {
    const letter = constraints(compiledSchemas.letter) as { properties: Record<string, Record<string, unknown>> };
    const documented = structuredClone(letter);
    documented.properties.member_id = { ...documented.properties.member_id, maxLength: 81 };
    expect(documented).not.toEqual(letter);
  });
});
