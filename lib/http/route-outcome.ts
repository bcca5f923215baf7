import { serviceError, type ExactError, type ServiceError } from '../errors/index.js';
import type { SafeLogFields } from '../logging/index.js';
import type { Answer } from './middleware/state.js';
import { errorResponse, jsonResponse } from './response.js';

/**
 * A route's outcome as a value, and the pipeline's answer made from it (./api-handler.ts, the payer
 * and batch handlers): its own module, so a handler that answers with outcomes but reads no body
 * (the payer directory) bundles none of the body steps.
 */

export interface RouteInput<B> {
  body: B;
  clientId: string;
  requestId: string;
}

/** A route's answer; `log` fields (no patient data by type) join the request's one access-log line. */
export type RouteOutcome = (
  | {
      ok: true;
      status?: number;
      body: unknown;
      /** The body embeds a transient failure (docs/runtime.md#idempotency): never stored under a key. */
      transient?: boolean;
      /** A small form `ApiHandlerOptions.expand` rebuilds this body from, byte for byte. */
      compact?: unknown;
    }
  | { ok: false; error: ServiceError | ExactError }
) & {
  log?: SafeLogFields;
};

export type Route<B> = (input: RouteInput<B>) => Promise<RouteOutcome>;

/**
 * Lambda refuses a synchronous response over 6 MB (headers and JSON escaping included), which API
 * Gateway turns into a bare 502; a body is kept well under that.
 */
const MAX_ANSWER_BYTES = 5_000_000;

/** A route outcome as the pipeline's answer: the response, and what the log and the store need. */
export function answerOf(outcome: RouteOutcome, requestId: string): Answer {
  const log: SafeLogFields = { ...outcome.log };
  if (!outcome.ok) {
    if ('code' in outcome.error) log.code = outcome.error.code;
    return { response: errorResponse(outcome.error, requestId), log };
  }
  const response = jsonResponse(outcome.status ?? 200, outcome.body, requestId);
  if (Buffer.byteLength(response.body) > MAX_ANSWER_BYTES) {
    // Lists are capped where they are built; this catches any that is not (docs/security.md#answer-size).
    const error = serviceError('UPSTREAM_ERROR', { message: 'The answer built from the upstream reply is too large to return' });
    return { response: errorResponse(error, requestId), log: { ...log, code: error.code } };
  }
  return { response, log, ...(outcome.transient ? { transient: true } : {}), ...(outcome.compact === undefined ? {} : { compact: outcome.compact }) };
}
