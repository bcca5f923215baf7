/**
 * Requests in (docs/api.md#errors): the request JSON Schemas, their compiled validators and the rules a
 * schema cannot state; and the response schemas the answers are typed by (./responses).
 *
 * @example
 * ```ts
 * import { validateBody } from '../validation/index.js';
 * const checked = validateBody('cob', JSON.parse(text)); // Result<CobRequest>: 400 INVALID_REQUEST lists every problem
 * ```
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { fail, MAX_LISTED_ERRORS, ok, serviceError, type FieldError, type Result } from '../errors/index.js';
import { withinBounds } from './bounds.js';
import { systemClock, type Clock } from '../config/index.js';
import { FORMATS, US_DATE_PATTERN } from './formats.js';
import { upperCaseCodes } from './letter-case.js';
import { ruleProblems } from './rules.js';
import {
  BASE64_TEXT,
  INVISIBLE,
  NAME_OR_ID,
  NO_CONTROL_CHARACTERS,
  PROCEDURE_CODE,
  SCHEMAS,
  SSN,
  ZIP_CODE,
  type RequestBodies,
  type SchemaName,
} from './schemas.js';
import * as VALIDATORS from './validators.generated.js';

/**
 * Validates a parsed body against its schema and reports every problem at once as
 * 400 INVALID_REQUEST with `errors: [{field, message}]`.
 */

/**
 * One compiled validator per request schema (JSON Schema 2020-12, as OpenAPI 3.1 uses), generated ahead
 * of time by `npm run openapi` (infra/tools/openapi/validators.ts): a cold start neither loads the JSON Schema
 * compiler nor compiles on its first request. The schemas are checked against the meta-schema by a test
 * (test/validation/schemas.test.ts). docs/api.md#validation
 */
const validatorFor = (name: SchemaName): ValidateFunction => (VALIDATORS as unknown as Record<SchemaName, ValidateFunction>)[name];

/** `/serviceTypeCodes/2` → `serviceTypeCodes[2]` */
function fieldName(instancePath: string, child?: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (child !== undefined) parts.push(child);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

/** Describes one validator error; `value` is the offending value when it is a field of the body. */
type Describe = (error: ErrorObject, value: unknown) => FieldError;

const CONTROL_MESSAGE = 'must not contain control characters (such as tabs, line breaks or NUL)';
// biome-ignore lint/suspicious/noControlCharactersInRegex: the validator exists to refuse control characters, so it must match them
const HAS_CONTROL = /[\u0000-\u001F\u007F]/;
const HAS_INVISIBLE = new RegExp(`[${INVISIBLE}]`, 'u');

/** What a caller is told when a string breaks one of the schema patterns; a name says which of its rules. */
const PATTERN_MESSAGES: Record<string, (value: unknown) => string> = {
  [NO_CONTROL_CHARACTERS]: () => CONTROL_MESSAGE,
  [BASE64_TEXT]: () => 'must be base64 text (line breaks are allowed, other control characters are not)',
  [NAME_OR_ID]: (value) =>
    typeof value !== 'string'
      ? 'must contain a letter or digit, and no control or invisible characters'
      : HAS_CONTROL.test(value)
        ? CONTROL_MESSAGE
        : HAS_INVISIBLE.test(value)
          ? 'must not contain invisible or direction-control characters (such as zero-width spaces, direction marks or byte-order marks)'
          : 'must contain a letter or digit, not only spaces or the characters * ^ : ~',
  [PROCEDURE_CODE]: () => 'must be a procedure code of 5 letters or digits (CPT, HCPCS or CDT, such as 99213 or D0120)',
  [US_DATE_PATTERN]: () => 'must be a real calendar date in the form MM-DD-YYYY',
  [SSN]: () => 'must be 9 digits (dashes allowed, as 123-45-6789)',
  [ZIP_CODE]: () => 'must be a ZIP code: 5 digits, or ZIP+4 (as 12345 or 12345-6789)',
};

/** What the items of each list field are, for messages such as "must be a list of service type codes". */
const LIST_ITEMS: Record<string, { plural: string; singular: string }> = {
  serviceTypeCodes: { plural: 'service type codes', singular: 'service type code' },
  procedureCodes: { plural: 'procedure codes', singular: 'procedure code' },
  entry: { plural: 'Bundle entries', singular: 'Bundle entry' },
  contained: { plural: 'contained resources', singular: 'contained resource' },
  parameter: { plural: 'parameters', singular: 'parameter' },
  lines: { plural: 'estimate lines', singular: 'estimate line' },
  requested_services: { plural: 'requested services', singular: 'requested service' },
};
const itemsOf = (instancePath: string) => LIST_ITEMS[instancePath.split('/').filter(Boolean).pop() ?? ''] ?? { plural: 'values', singular: 'value' };

/** A pattern's rule in words, whatever the value (for the OpenAPI descriptions). */
export const patternRule = (pattern: string): string | undefined => PATTERN_MESSAGES[pattern]?.(undefined);

/** JSON types in words; a list names what it holds. */
function typeMessage(error: ErrorObject): string {
  const expected = String(error.params.type).split(',')[0];
  switch (expected) {
    case 'string':
      return 'must be text';
    case 'boolean':
      return 'must be true or false (without quotes)';
    case 'array':
      return `must be a list of ${itemsOf(error.instancePath).plural}`;
    case 'object':
      return 'must be an object';
    case 'integer':
      return 'must be a whole number';
    case 'number':
      return 'must be a number';
    default:
      return 'has the wrong type';
  }
}

/** "a, b or c" */
const oneOf = (values: unknown[]): string => {
  const words = values.map(String);
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
};

/**
 * One plain-words message per JSON Schema keyword the request schemas use (docs/api.md#validation);
 * a test walks every keyword of every schema and fails when one is missing or a validator's own
 * wording ("must be array", "must NOT have …") would reach a caller.
 */
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
  type: (e) => ({ field: fieldName(e.instancePath), message: typeMessage(e) }),
  maxLength: (e) => ({ field: fieldName(e.instancePath), message: `must be at most ${e.params.limit} characters long (spaces count)` }),
  minLength: (e) => ({
    field: fieldName(e.instancePath),
    message: e.params.limit === 1 ? 'must not be empty' : `must be at least ${e.params.limit} characters long`,
  }),
  pattern: (e, value) => ({
    field: fieldName(e.instancePath),
    message: PATTERN_MESSAGES[e.params.pattern]?.(value) ?? 'contains characters that are not allowed',
  }),
  format: (e) => ({ field: fieldName(e.instancePath), message: FORMATS[e.params.format]?.message ?? 'is not in the expected form' }),
  enum: (e) =>
    /^\/serviceTypeCodes\/|\/serviceTypeCode$/.test(e.instancePath)
      ? { field: fieldName(e.instancePath), message: 'must be an X12 005010 service type code' }
      : { field: fieldName(e.instancePath), message: `must be ${oneOf(e.params.allowedValues as unknown[])}` },
  minItems: (e) => ({
    field: fieldName(e.instancePath),
    message: `must list at least ${e.params.limit} ${e.params.limit === 1 ? itemsOf(e.instancePath).singular : itemsOf(e.instancePath).plural}`,
  }),
  maxItems: (e) => ({ field: fieldName(e.instancePath), message: `must list at most ${e.params.limit} ${itemsOf(e.instancePath).plural}` }),
  uniqueItems: (e) => ({
    field: fieldName(e.instancePath),
    message: `must not list the same ${itemsOf(e.instancePath).singular} twice (items ${Math.min(e.params.i, e.params.j)} and ${Math.max(e.params.i, e.params.j)} are equal)`,
  }),
  exclusiveMinimum: (e) => ({ field: fieldName(e.instancePath), message: `must be more than ${e.params.limit}` }),
  maximum: (e) => ({ field: fieldName(e.instancePath), message: `must be at most ${Number(e.params.limit).toLocaleString('en-US')}` }),
  const: (e) => ({ field: fieldName(e.instancePath), message: `must be ${JSON.stringify(e.params.allowedValue)}` }),
};

/** The keywords that have a message of their own (every other one gets a generic plain message). */
export const DESCRIBED_KEYWORDS: readonly string[] = Object.keys(DESCRIBE);

/** The value an error points at: a field of the body, or an item of one of its lists. */
function valueAt(body: unknown, instancePath: string): unknown {
  let value = body;
  for (const part of instancePath.split('/').slice(1)) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = Object.hasOwn(value, part) ? (value as Record<string, unknown>)[part] : undefined;
  }
  return value;
}

function describe(error: ErrorObject, body: unknown): FieldError {
  const known = DESCRIBE[error.keyword];
  // Never the validator's own wording: a keyword without a message above gets a neutral one.
  return known ? known(error, valueAt(body, error.instancePath)) : { field: fieldName(error.instancePath) || '(body)', message: 'is not valid here' };
}

export interface ValidateOptions {
  /** The clock for "today" in the date rules (./rules.ts); default the system clock. */
  clock?: Clock;
}

/**
 * The schema's problems, one per field (the first rule a value breaks is the one worth fixing
 * first: a raw length or a character rule comes before the format a trimmed value would be held
 * to), then the rules a schema cannot state (./rules.ts). Stops one past MAX_LISTED_ERRORS, the
 * most an answer lists, so the answer can say it was cut.
 */
export function validateBody<N extends SchemaName>(name: N, body: unknown, options: ValidateOptions = {}): Result<RequestBodies[N]> {
  const validate = validatorFor(name);
  // Lists and unknown keys past their limits are cut before item-by-item work (./bounds.ts); then
  // codes are upper-cased (./letter-case.ts), and that body is the one the route uses.
  const bounded = upperCaseCodes(withinBounds(SCHEMAS[name], body));
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  if (!validate(bounded)) {
    for (const error of validate.errors ?? []) {
      if (errors.length > MAX_LISTED_ERRORS) break;
      const item = describe(error, bounded);
      if (!seen.has(item.field)) {
        seen.add(item.field);
        errors.push(item);
      }
    }
  }
  if (errors.length <= MAX_LISTED_ERRORS) errors.push(...ruleProblems(name, bounded, { now: new Date((options.clock ?? systemClock).now()), reported: seen }));
  if (errors.length === 0) return ok(bounded as RequestBodies[N]);
  return fail(
    serviceError('INVALID_REQUEST', {
      message: `The request body is invalid (${errors.length > MAX_LISTED_ERRORS ? `more than ${MAX_LISTED_ERRORS}` : errors.length} problem${errors.length === 1 ? '' : 's'})`,
      errors,
    }),
  );
}

export { SCHEMAS } from './schemas.js';
export type {
  CardCheckRequest,
  CardRequest,
  CobRequest,
  DiscoveryRequest,
  EligibilityRequest,
  FhirBundleRequest,
  LetterRequest,
  MbiRequest,
  RequestBodies,
  SchemaName,
} from './schemas.js';

export { AJV_FORMATS, FORMATS, US_DATE, usDateToD8, usDateToIso } from './formats.js';
export { UPPER_CASED_LISTS } from './letter-case.js';
export { batchAcceptedSchema, batchItemPageSchema, batchStatusSchema, type Closed, type batchItemSchema } from './responses/batch.js';
export type { additionalPlanBenefitSchema, cobResponseSchema, requestedPlanBenefitSchema } from './responses/cob.js';
export { discoveryResponseSchema, mbiResponseSchema } from './responses/discovery.js';
export type { mockEligibilityResponseSchema, realEligibilityResponseSchema } from './responses/eligibility.js';
export type {
  dependentSchema,
  estimateLineSchema,
  estimateSchema,
  limitationSchema,
  otherPayerSchema,
  planSchema,
  procedureBenefitSchema,
  serviceBenefitSchema,
  subscriberSchema,
} from './responses/entries.js';
export type { errorResponseSchema } from './responses/errors.js';
export { RESPONSE_SCHEMAS } from './responses/index.js';
export type { letterResponseSchema } from './responses/letter.js';
export type { payerPageSchema, payerSchema } from './responses/payers.js';
export type {
  benefitBlockSchema,
  benefitFiguresSchema,
  codeNameSchema,
  coverageStatusSchema,
  mockBenefitBlockSchema,
  mockBenefitFiguresSchema,
  noticeSchema,
} from './responses/shared.js';
export {
  BALANCE_BILLING_NOTE,
  COB_CODES,
  COVERAGE_TYPES,
  ITEM_STATES,
  MAX_PAYER_PAGE_SIZE,
  MISSING_FIGURES,
  MOCK_SUCCESS_MESSAGE,
  PLAN_FIELDS,
  SUCCESS_MESSAGE,
  TRANSACTIONS,
  type BATCH_STATUSES,
  type EligibilityNoticeCode,
  type LetterNoticeCode,
  type Occurrence,
} from './responses/vocabulary.js';
export { NO_CONTROL_CHARACTERS, type EstimateRequest } from './schemas.js';
export { eligibility } from './validators.generated.js';

export type { cardResponseSchema } from './responses/card.js';
export { CARD_ADDRESS_MAX, CARD_FIELDS, CARD_LIST_MAX, CARD_TEXT_FIELDS, CARD_TEXT_MAX, CONFIDENCE_LEVELS, type CardField } from './responses/vocabulary.js';

export type { RequestedService } from './schemas.js';
