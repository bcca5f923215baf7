import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { RESPONSE_SCHEMAS, type ResponseSchemaName } from '../../lib/validation/responses/index.js';

/**
 * The response schemas (lib/validation/responses: the same objects the answer types and the OpenAPI
 * document come from) compiled strictly (meta-schema checked), for tests that validate real answers.
 */

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020, formats: string[]) => Ajv2020;
const ajv = new Ajv2020({ strict: true, allErrors: true, validateSchema: true });
addFormats(ajv, ['date', 'date-time', 'uuid']);

const compiled = new Map<string, ValidateFunction>();

export type { ResponseSchemaName };

/** Problems of `body` against a response schema ([] when it conforms). */
export function responseProblems(name: ResponseSchemaName, body: unknown): string[] {
  let validate = compiled.get(name);
  if (!validate) {
    validate = ajv.compile(RESPONSE_SCHEMAS[name]);
    compiled.set(name, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (error) =>
      `${name}${error.instancePath} ${error.message}${error.params && 'additionalProperty' in error.params ? `: ${error.params.additionalProperty}` : ''}`,
  );
}
