import { describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { SCHEMAS } from '../../lib/validation/schemas.js';
import { FORMATS } from '../../lib/validation/formats.js';

/**
 * The service skips meta-schema checking at start (cold start); this test does it instead, so an
 * invalid schema still fails the build.
 */
describe('request schemas', () => {
  const strictAjv = new Ajv2020({ strict: true, validateSchema: true });
  for (const name of Object.keys(FORMATS)) strictAjv.addFormat(name, true);

  it.each(Object.entries(SCHEMAS))('%s is valid JSON Schema 2020-12 under strict mode', (_name, schema) => {
    expect(strictAjv.validateSchema(schema)).toBe(true);
    expect(strictAjv.errors ?? null).toBeNull();
    expect(() => strictAjv.compile(schema)).not.toThrow();
  });

  it('the meta-schema check does catch a broken schema', () => {
    expect(strictAjv.validateSchema({ type: 'object', properties: { a: { type: 'strnig' } } })).toBe(false);
  });
});
