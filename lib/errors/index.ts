/**
 * One error model for the whole service (docs/api.md#errors).
 *
 * Errors are values: a `ServiceError` names a code from the table below and carries what the
 * response needs. Code that cannot return a value (middleware, deep helpers) throws a
 * `ServiceFailure`, which only wraps a `ServiceError`. The HTTP layer turns either into a response.
 *
 * @example
 * ```ts
 * import { fail, ok, serviceError, type Result } from '../errors/index.js';
 * const half = (n: number): Result<number> => (n % 2 === 0 ? ok(n / 2) : fail(serviceError('INVALID_REQUEST', { message: 'must be even' })));
 * half(3); // { ok: false, error: { status: 400, code: 'INVALID_REQUEST', … } }
 * ```
 */

export interface FieldError {
  field: string;
  message: string;
}

/** One AAA segment of a 271 (or an AAA-style error in a Stedi JSON answer). */
export interface AaaRejection {
  /** AAA03, the reject reason code (e.g. "72"). */
  code: string;
  /** The X12 description of that code. */
  description: string;
  /** AAA04, the follow-up action code, with its description (e.g. "C: Please Correct and Resubmit"). */
  followUpAction: string;
  /** The loop the AAA stood in (2000A, 2100A, 2100B, 2100C, 2100D, 2110C, 2110D). */
  loop: string;
}

export const ERROR_TABLE = {
  NOT_FOUND: { status: 404, message: 'No route matches this method and path' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'This path does not accept this method' },
  NOT_ACCEPTABLE: { status: 406, message: 'Accept must allow application/json (the default) or application/pdf' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content-Type must be application/json' },
  INVALID_JSON: { status: 400, message: 'The body is not a JSON object' },
  INVALID_REQUEST: { status: 400, message: 'The request body is invalid' },
  PROVIDER_NOT_ENROLLED: { status: 403, message: 'The provider is not enrolled for this client and payer' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The file is too large' },
  INVALID_FILE: { status: 400, message: 'file_content is not base64 of a readable PDF' },
  UNSUPPORTED_PAYER: { status: 422, message: 'This payer is not supported for this check' },
  PAYER_NOT_SUPPORTED: { status: 422, message: 'The payer directory lists this payer as not supporting this transaction' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, message: 'This Idempotency-Key was already used with a different body' },
  REQUEST_IN_PROGRESS: { status: 409, message: 'A request with this Idempotency-Key is still running; try again shortly', retryAfterSeconds: 5 },
  PAYER_REJECTED: { status: 422, message: 'The payer rejected the request' },
  LETTER_NOT_GENERATED: { status: 422, message: 'The letter could not be generated' },
  CARD_NOT_READ: { status: 422, message: 'The image is not a readable insurance card' },
  BATCH_LIMIT_EXCEEDED: { status: 429, message: 'This client has too many batch items not yet finished; try again once some finish', retryAfterSeconds: 60 },
  DISCOVERY_LIMIT_EXCEEDED: {
    status: 429,
    message: 'This client has used its insurance discoveries for today (DISCOVERY_MAX_PER_DAY); try again after midnight UTC',
    retryAfterSeconds: 3600,
  },
  PAYER_UNAVAILABLE: { status: 503, message: 'The payer or clearinghouse is unavailable; try again later' },
  AI_UNAVAILABLE: { status: 503, message: 'The letter service is busy; try again later' },
  UPSTREAM_TIMEOUT: { status: 504, message: 'The upstream service did not answer in time' },
  UPSTREAM_ERROR: { status: 502, message: 'The upstream answer could not be read' },
  CONFIGURATION_ERROR: { status: 500, message: 'The service is not configured correctly' },
  INTERNAL_ERROR: { status: 500, message: 'Internal server error' },
} as const satisfies Record<string, { status: number; message: string; retryAfterSeconds?: number }>;

export type ErrorCode = keyof typeof ERROR_TABLE;

/**
 * Whether a part of an answer (a COB part, a discovery part) is the `{message, code}` of a failure with a
 * 5xx status: asking again may answer it, so the answer is never frozen under an Idempotency-Key
 * (docs/runtime.md#idempotency).
 */
export const isTransientFailure = (part: unknown): boolean =>
  typeof part === 'object' &&
  part !== null &&
  'code' in part &&
  typeof part.code === 'string' &&
  part.code in ERROR_TABLE &&
  ERROR_TABLE[part.code as ErrorCode].status >= 500;

export interface ServiceError {
  code: ErrorCode;
  status: number;
  message: string;
  errors?: FieldError[];
  /** Set when `errors` was cut to MAX_LISTED_ERRORS items. */
  errorsTruncated?: true;
  rejections?: AaaRejection[];
  /** Seconds for a `Retry-After` header (503s, 409 REQUEST_IN_PROGRESS). */
  retryAfterSeconds?: number;
}

export interface ServiceErrorOptions {
  message?: string;
  errors?: FieldError[];
  rejections?: AaaRejection[];
  retryAfterSeconds?: number;
}

const DEFAULT_RETRY_AFTER_SECONDS = 30;

/**
 * Lists in an error answer stop at this many items (docs/security.md#answer-size): a body with
 * 100,000 unknown keys gets 50 of them and `errorsTruncated: true`, never a multi-megabyte answer.
 */
export const MAX_LISTED_ERRORS = 50;

export function serviceError(code: ErrorCode, options: ServiceErrorOptions = {}): ServiceError {
  const entry = ERROR_TABLE[code];
  const error: ServiceError = { code, status: entry.status, message: options.message ?? entry.message };
  if (options.errors) {
    error.errors = options.errors.slice(0, MAX_LISTED_ERRORS);
    if (options.errors.length > MAX_LISTED_ERRORS) error.errorsTruncated = true;
  }
  if (options.rejections) error.rejections = options.rejections.slice(0, MAX_LISTED_ERRORS);
  const retryAfter = 'retryAfterSeconds' in entry ? entry.retryAfterSeconds : entry.status === 503 ? DEFAULT_RETRY_AFTER_SECONDS : undefined;
  if (retryAfter !== undefined) error.retryAfterSeconds = options.retryAfterSeconds ?? retryAfter;
  return error;
}

/** A response whose body docs/api.md#errors fixes exactly (`{"message": …}` and nothing else). */
export interface ExactError {
  status: number;
  body: { message: string };
}

export const EXACT = {
  UNAUTHORIZED: { status: 401, body: { message: 'Unauthorized' } },
  FORBIDDEN: { status: 403, body: { message: 'Forbidden' } },
  MOCK_NOT_FOUND: { status: 500, body: { message: 'Mock request not found' } },
  MOCK_ELIGIBILITY_ERROR: { status: 502, body: { message: 'Mock: Error retrieving eligibility data.' } },
  MOCK_COB_ERROR: { status: 502, body: { message: 'Mock: Error retrieving coordination of benefits data.' } },
} as const satisfies Record<string, ExactError>;

/** Thrown where a value cannot be returned; carries a ServiceError or an ExactError. */
export class ServiceFailure extends Error {
  constructor(readonly failure: ServiceError | ExactError) {
    super('body' in failure ? failure.body.message : `${failure.code}: ${failure.message}`);
    this.name = 'ServiceFailure';
  }
}

/** The outcome of an operation that can fail with a ServiceError. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ServiceError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(error: ServiceError): Result<T> => ({ ok: false, error });
