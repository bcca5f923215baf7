import { ERROR_TABLE, EXACT, type ErrorCode } from '../../../lib/errors/index.js';
import { MOCK_PATIENTS } from '../../../lib/mock/patients.js';
import { validateBody } from '../../../lib/validation/index.js';
import { header, ref } from './components.js';

/**
 * The error responses of the OpenAPI document (document.ts): which codes each route can answer, when
 * each happens, and an example body per code, from the error table (docs/api.md#errors).
 */

type Json = Record<string, unknown>;

type ErrorRoute = 'eligibility' | 'cob' | 'letter' | 'payers' | 'mcp' | 'batch' | 'batch-read' | 'discovery' | 'discovery-read' | 'mbi';

/** What every upstream-calling POST route can answer (body, key, enrollment, upstream). */
const UPSTREAM_POST: ErrorCode[] = [
  'INVALID_JSON',
  'INVALID_REQUEST',
  'PROVIDER_NOT_ENROLLED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'IDEMPOTENCY_KEY_REUSED',
  'REQUEST_IN_PROGRESS',
  'CONFIGURATION_ERROR',
  'INTERNAL_ERROR',
  'UPSTREAM_ERROR',
  'PAYER_UNAVAILABLE',
  'UPSTREAM_TIMEOUT',
];

const ERRORS_BY_ROUTE: Record<ErrorRoute, ErrorCode[]> = {
  discovery: [...UPSTREAM_POST, 'DISCOVERY_LIMIT_EXCEEDED'],
  'discovery-read': ['NOT_FOUND', 'CONFIGURATION_ERROR', 'INTERNAL_ERROR', 'UPSTREAM_ERROR', 'PAYER_UNAVAILABLE', 'UPSTREAM_TIMEOUT'],
  mbi: [...UPSTREAM_POST, 'PAYER_REJECTED'],
  eligibility: [
    'DISCOVERY_LIMIT_EXCEEDED',
    'INVALID_JSON',
    'INVALID_REQUEST',
    'PROVIDER_NOT_ENROLLED',
    'PAYLOAD_TOO_LARGE',
    'UNSUPPORTED_MEDIA_TYPE',
    'IDEMPOTENCY_KEY_REUSED',
    'REQUEST_IN_PROGRESS',
    'PAYER_REJECTED',
    'PAYER_NOT_SUPPORTED',
    'CONFIGURATION_ERROR',
    'INTERNAL_ERROR',
    'UPSTREAM_ERROR',
    'PAYER_UNAVAILABLE',
    'UPSTREAM_TIMEOUT',
  ],
  cob: [
    'INVALID_JSON',
    'INVALID_REQUEST',
    'PROVIDER_NOT_ENROLLED',
    'PAYLOAD_TOO_LARGE',
    'UNSUPPORTED_MEDIA_TYPE',
    'IDEMPOTENCY_KEY_REUSED',
    'REQUEST_IN_PROGRESS',
    'PAYER_REJECTED',
    'UNSUPPORTED_PAYER',
    'PAYER_NOT_SUPPORTED',
    'CONFIGURATION_ERROR',
    'INTERNAL_ERROR',
    'UPSTREAM_ERROR',
    'PAYER_UNAVAILABLE',
    'UPSTREAM_TIMEOUT',
  ],
  payers: ['INVALID_REQUEST', 'NOT_FOUND', 'CONFIGURATION_ERROR', 'INTERNAL_ERROR', 'UPSTREAM_ERROR', 'PAYER_UNAVAILABLE', 'UPSTREAM_TIMEOUT'],
  mcp: ['INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'INTERNAL_ERROR'],
  batch: [
    'INVALID_JSON',
    'INVALID_REQUEST',
    'PAYLOAD_TOO_LARGE',
    'UNSUPPORTED_MEDIA_TYPE',
    'IDEMPOTENCY_KEY_REUSED',
    'REQUEST_IN_PROGRESS',
    'BATCH_LIMIT_EXCEEDED',
    'CONFIGURATION_ERROR',
    'INTERNAL_ERROR',
  ],
  'batch-read': ['INVALID_REQUEST', 'NOT_FOUND', 'INTERNAL_ERROR'],
  letter: [
    'INVALID_JSON',
    'INVALID_REQUEST',
    'INVALID_FILE',
    'PAYLOAD_TOO_LARGE',
    'UNSUPPORTED_MEDIA_TYPE',
    'IDEMPOTENCY_KEY_REUSED',
    'REQUEST_IN_PROGRESS',
    'LETTER_NOT_GENERATED',
    'CONFIGURATION_ERROR',
    'INTERNAL_ERROR',
    'UPSTREAM_ERROR',
    'AI_UNAVAILABLE',
    'UPSTREAM_TIMEOUT',
  ],
};

/** When each code happens, for the response descriptions (the message is the default text). */
const ERROR_WHEN: Partial<Record<ErrorCode, string>> = {
  INVALID_JSON: 'the body is not JSON, not an object, not valid UTF-8, or repeats a key',
  INVALID_REQUEST: 'the body breaks the schema (missing, wrong type, bad format, unknown field); every problem is in `errors`',
  INVALID_FILE: 'file_content is not base64 of a readable, unencrypted PDF',
  PROVIDER_NOT_ENROLLED: "the provider is not actively enrolled for this client (and payer); same body whether unknown or another client's",
  PAYLOAD_TOO_LARGE: 'the file is over 4 MiB decoded, over 100 pages or would decompress past 64 MiB; or the request is over 6 MiB',
  UNSUPPORTED_MEDIA_TYPE: 'Content-Type is not application/json',
  IDEMPOTENCY_KEY_REUSED: 'the Idempotency-Key was used before with a different body',
  REQUEST_IN_PROGRESS: 'a request with the same Idempotency-Key is still running (see Retry-After)',
  PAYER_REJECTED: 'the payer rejected the request (an AAA other than 42/79/80); the reasons are in `rejections`',
  UNSUPPORTED_PAYER: 'the payer cannot answer this check (Medicare on the COB route)',
  PAYER_NOT_SUPPORTED: 'the payer directory lists the payer as not supporting this transaction (refused before any charge; see GET /api/payers)',
  LETTER_NOT_GENERATED: 'the AI refused or produced an unusable letter',
  CONFIGURATION_ERROR: 'upstream credentials are missing or rejected (never echoes a secret)',
  INTERNAL_ERROR: 'anything unexpected; message "Internal server error"',
  UPSTREAM_ERROR: 'the upstream answer was unreadable (999, broken 271, bad JSON) or AAA 79',
  PAYER_UNAVAILABLE: 'the payer or clearinghouse is unavailable (AAA 42/80, HTTP 429/5xx after the retry); see Retry-After',
  AI_UNAVAILABLE: 'the AI is rate-limited or overloaded after the retry; see Retry-After',
  UPSTREAM_TIMEOUT: 'the upstream did not answer within the time budget',
  NOT_FOUND: 'no route has this path (GET /api/payers/{payerId}: no payer has this id; a batch route: no batch of yours has this id)',
  DISCOVERY_LIMIT_EXCEEDED:
    'your client sent DISCOVERY_MAX_PER_DAY insurance discoveries (default 200) this UTC day; Retry-After is the seconds to midnight UTC',
  BATCH_LIMIT_EXCEEDED: 'your unfinished batch items would pass BATCH_MAX_PENDING_ITEMS (default 20,000); see Retry-After',
  METHOD_NOT_ALLOWED: 'the path exists but not with this method (see the Allow header)',
};

export const errorSchemaFor = (codes: ErrorCode[]) => ({ allOf: [ref('Error'), { type: 'object', properties: { code: { enum: codes } } }] });

/** A request id and Retry-After example that a reader recognises. */
export const REQUEST_ID = 'abc-123';

function errorExample(code: ErrorCode): Json {
  const body: Json = { message: ERROR_TABLE[code].message, code, requestId: REQUEST_ID };
  if (code === 'INVALID_REQUEST') {
    // What the validator really answers for a typo'd flag and an impossible date.
    const invalid = validateBody('eligibility', { ...MOCK_PATIENTS[0], patientDOB: '02-30-1980', runCOBCheck: true });
    if (!invalid.ok) Object.assign(body, { message: invalid.error.message, errors: invalid.error.errors });
  }
  if (code === 'PAYER_REJECTED') {
    body.rejections = [{ code: '75', description: 'Subscriber/Insured Not Found', followUpAction: 'C: Please Correct and Resubmit', loop: '2100C' }];
  }
  return body;
}

/** The responses an authenticated POST route can give besides its 200. */
export function errorResponses(route: keyof typeof ERRORS_BY_ROUTE, exact: Record<number, Json>): Json {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of ERRORS_BY_ROUTE[route]) {
    const status = ERROR_TABLE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Json = {
    '401': { $ref: '#/components/responses/Unauthorized' },
    '429': { $ref: '#/components/responses/TooManyRequests' },
  };
  for (const status of [...new Set([...byStatus.keys(), 403, ...Object.keys(exact).map(Number)])].sort((a, b) => a - b)) {
    const codes = byStatus.get(status) ?? [];
    const lines = codes.map((code) => `- \`${code}\`: ${ERROR_WHEN[code] ?? ERROR_TABLE[code].message}`);
    const examples: Json = Object.fromEntries(codes.map((code) => [code, { value: errorExample(code) }]));
    const alternatives: unknown[] = codes.length > 0 ? [errorSchemaFor(codes)] : [];
    if (status === 403) {
      lines.unshift('- body exactly `{"message":"Forbidden"}`: the token is unknown or malformed');
      examples.Forbidden = { value: EXACT.FORBIDDEN.body };
      alternatives.push(ref('MessageOnly'));
    }
    if (exact[status]) {
      lines.push(`- body exactly \`${JSON.stringify(exact[status])}\`: mock mode (see the examples)`);
      examples.Mock = { value: exact[status] };
      if (!alternatives.some((a) => JSON.stringify(a) === JSON.stringify(ref('MessageOnly')))) alternatives.push(ref('MessageOnly'));
    }
    if (status === 429) {
      // The gateway's own 429 (usage plan) shares the status with BATCH_LIMIT_EXCEEDED and DISCOVERY_LIMIT_EXCEEDED.
      lines.unshift('- body `{"message":"Too Many Requests"}` or `{"message":"Limit Exceeded"}`: over your rate limit or quota (usage plan)');
      examples.Gateway = { value: { message: 'Too Many Requests' } };
      alternatives.push(ref('MessageOnly'));
    }
    const retry = codes.some((code) => ERROR_TABLE[code].status === 503 || ERROR_TABLE[code].status === 429 || code === 'REQUEST_IN_PROGRESS');
    responses[String(status)] = {
      description: lines.join('\n'),
      headers: { 'x-request-id': header('XRequestId'), 'Cache-Control': header('CacheControl'), ...(retry ? { 'Retry-After': header('RetryAfter') } : {}) },
      content: { 'application/json': { schema: alternatives.length === 1 ? alternatives[0] : { oneOf: alternatives }, examples } },
    };
  }
  return responses;
}
