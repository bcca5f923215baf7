import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv2020 as Ajv } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { fail, ok, serviceError, type FieldError, type Result } from '../errors/index.js';
import { FORMATS } from './formats.js';
import { BASE64_TEXT, NO_CONTROL_CHARACTERS, SCHEMAS, X12_VALUE, type RequestBodies, type SchemaName } from './schemas.js';

/**
 * Validates a parsed body against its schema and reports every problem at once as
 * 400 INVALID_REQUEST with `errors: [{field, message}]`.
 */

// ajv-formats is CommonJS; under ESM interop its plugin may sit on `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv, formats: string[]) => Ajv;

/**
 * JSON Schema 2020-12 (as OpenAPI 3.1 uses), for dependentRequired. Cold start matters here: the
 * schemas are checked against the meta-schema by a test (test/validation/schemas.test.ts), not at
 * every Lambda start, and each function compiles only the schema it uses, on first use.
 */
const ajv = new Ajv({ allErrors: true, strict: true, validateSchema: false, meta: false });
addFormats(ajv, ['email']);
for (const [name, rule] of Object.entries(FORMATS)) {
  if (name !== 'email') ajv.addFormat(name, { type: 'string', validate: rule.validate });
}

const validators: Partial<Record<SchemaName, ValidateFunction>> = {};
const validatorFor = (name: SchemaName): ValidateFunction => (validators[name] ??= ajv.compile(SCHEMAS[name]));

/** `/serviceTypeCodes/2` → `serviceTypeCodes[2]` */
function fieldName(instancePath: string, child?: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (child !== undefined) parts.push(child);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

type Describe = (error: ErrorObject) => FieldError;

/** What a caller is told when a string breaks one of the schema patterns. */
const PATTERN_MESSAGES: Record<string, string> = {
  [NO_CONTROL_CHARACTERS]: 'must not contain control characters (such as tabs, line breaks or NUL)',
  [BASE64_TEXT]: 'must be base64 text (line breaks are allowed, other control characters are not)',
  [X12_VALUE]: 'must contain a letter or digit, not only spaces or the characters * ^ : ~, and no control characters',
};

const DESCRIBE: Record<string, Describe> = {
  required: (e) => ({ field: fieldName(e.instancePath, e.params.missingProperty), message: 'is required' }),
  additionalProperties: (e) => ({
    field: fieldName(e.instancePath, e.params.additionalProperty),
    message: 'is not an allowed field',
  }),
  dependentRequired: (e) => ({
    field: fieldName(e.instancePath, e.params.missingProperty),
    message: `is required when ${e.params.property} is given (a dependent needs first name, last name and date of birth)`,
  }),
  type: (e) => ({ field: fieldName(e.instancePath), message: `must be a ${e.params.type}` }),
  maxLength: (e) => ({ field: fieldName(e.instancePath), message: `must be at most ${e.params.limit} characters long (spaces count)` }),
  minLength: (e) => ({ field: fieldName(e.instancePath), message: 'must not be empty' }),
  pattern: (e) => ({ field: fieldName(e.instancePath), message: PATTERN_MESSAGES[e.params.pattern] ?? 'contains characters that are not allowed' }),
  format: (e) => ({ field: fieldName(e.instancePath), message: FORMATS[e.params.format]?.message ?? 'has an invalid format' }),
  enum: (e) =>
    /^\/serviceTypeCodes\//.test(e.instancePath)
      ? { field: fieldName(e.instancePath), message: 'must be an X12 005010 service type code' }
      : { field: fieldName(e.instancePath), message: `must be one of: ${(e.params.allowedValues as string[]).join(', ')}` },
};

function describe(error: ErrorObject): FieldError {
  const known = DESCRIBE[error.keyword];
  return known ? known(error) : { field: fieldName(error.instancePath) || '(body)', message: error.message ?? 'is invalid' };
}

export function validateBody<N extends SchemaName>(name: N, body: unknown): Result<RequestBodies[N]> {
  const validate = validatorFor(name);
  if (validate(body)) return ok(body as RequestBodies[N]);
  // One problem per field: the first rule a value breaks is the one worth fixing first (a raw
  // length or a character rule comes before the format a trimmed value would be held to).
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  for (const error of validate.errors ?? []) {
    const item = describe(error);
    if (!seen.has(item.field)) {
      seen.add(item.field);
      errors.push(item);
    }
  }
  return fail(serviceError('INVALID_REQUEST', { message: `The request body is invalid (${errors.length} problem${errors.length === 1 ? '' : 's'})`, errors }));
}

export { SCHEMAS } from './schemas.js';
export type { CobRequest, EligibilityRequest, LetterRequest, RequestBodies, SchemaName } from './schemas.js';
