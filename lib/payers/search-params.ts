import { fail, type FieldError, ok, type Result, serviceError } from '../errors/index.js';
import { MAX_PAYER_PAGE_SIZE, NO_CONTROL_CHARACTERS } from '../validation/index.js';
import { type PayerSearch, TRANSACTIONS } from './types.js';

/**
 * The parameters of a payer search, as one JSON Schema: the REST route reads its query string with
 * it, the MCP tool `search_payers` offers it as the input schema, and the OpenAPI document lists it
 * (docs/api.md#payer-directory). Query-string values arrive as text; `pageSize` is read as a number.
 */

const PAGE_SIZE = { default: 20, min: 1, max: MAX_PAYER_PAGE_SIZE } as const;

export const PAYER_SEARCH_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    q: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      pattern: NO_CONTROL_CHARACTERS,
      description: 'Payer name, payer id or alias; typos are tolerated ("Aetan" finds Aetna).',
    },
    transaction: { type: 'string', enum: [...TRANSACTIONS], description: 'Only payers that support this transaction (SUPPORTED or ENROLLMENT_REQUIRED).' },
    pageSize: { type: 'integer', minimum: PAGE_SIZE.min, maximum: PAGE_SIZE.max, default: PAGE_SIZE.default, description: 'Payers per page.' },
    pageToken: { type: 'string', minLength: 1, maxLength: 2000, pattern: NO_CONTROL_CHARACTERS, description: 'The nextPageToken of the previous page.' },
  },
} as const;

/** The one payer path parameter (GET /api/payers/{payerId}); the same limits as a request's `payerId`. */
export const PAYER_ID_SCHEMA = { type: 'string', minLength: 1, maxLength: 80, pattern: NO_CONTROL_CHARACTERS } as const;

const KNOWN = Object.keys(PAYER_SEARCH_SCHEMA.properties);
const WITHOUT_CONTROL = new RegExp(NO_CONTROL_CHARACTERS);

/** Whether a value holds a C0 control character or DEL (the schemas' NO_CONTROL_CHARACTERS rule). */
export const hasControlCharacter = (value: string): boolean => !WITHOUT_CONTROL.test(value);

function text(value: unknown, maxLength: number, field: string, errors: FieldError[]): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') errors.push({ field, message: 'must be text' });
  else if (value.length === 0) errors.push({ field, message: 'must not be empty' });
  else if (value.length > maxLength) errors.push({ field, message: `must be at most ${maxLength} characters long (spaces count)` });
  else if (hasControlCharacter(value)) errors.push({ field, message: 'must not contain control characters (such as tabs, line breaks or NUL)' });
  else return value;
  return undefined;
}

/**
 * Reads search parameters from a query string (all text) or an MCP call (JSON values): every
 * problem in one 400 INVALID_REQUEST, with the same plain messages as the request bodies.
 */
export function readPayerSearch(params: Record<string, unknown>): Result<PayerSearch> {
  const errors: FieldError[] = [];
  for (const name of Object.keys(params)) {
    if (!KNOWN.includes(name)) errors.push({ field: name, message: 'is not an allowed field' });
  }
  const { properties } = PAYER_SEARCH_SCHEMA;
  const q = text(params.q, properties.q.maxLength, 'q', errors);
  const pageToken = text(params.pageToken, properties.pageToken.maxLength, 'pageToken', errors);
  let transaction: PayerSearch['transaction'];
  if (params.transaction !== undefined) {
    if (typeof params.transaction === 'string' && (TRANSACTIONS as readonly string[]).includes(params.transaction)) {
      transaction = params.transaction as PayerSearch['transaction'];
    } else errors.push({ field: 'transaction', message: 'must be eligibility or cob' });
  }
  let pageSize: number = PAGE_SIZE.default;
  if (params.pageSize !== undefined) {
    const raw = params.pageSize;
    const number = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isInteger(number) || number < PAGE_SIZE.min || number > PAGE_SIZE.max) {
      errors.push({ field: 'pageSize', message: `must be a whole number from ${PAGE_SIZE.min} to ${PAGE_SIZE.max}` });
    } else pageSize = number;
  }
  if (errors.length > 0) {
    return fail(
      serviceError('INVALID_REQUEST', { message: `The search parameters are invalid (${errors.length} problem${errors.length === 1 ? '' : 's'})`, errors }),
    );
  }
  const search: PayerSearch = { pageSize };
  if (q !== undefined && q.trim() !== '') search.q = q.trim();
  if (transaction) search.transaction = transaction;
  if (pageToken !== undefined) search.pageToken = pageToken;
  return ok(search);
}
