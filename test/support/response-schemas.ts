import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { RESPONSE_SCHEMAS } from '../../infra/tools/openapi/responses.js';

/** The response schemas compiled strictly (meta-schema checked), for tests that validate real answers. */

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020, formats: string[]) => Ajv2020;
const ajv = new Ajv2020({ strict: true, allErrors: true, validateSchema: true });
addFormats(ajv, ['date', 'date-time']);

const compiled = new Map<string, ValidateFunction>();

export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;

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
