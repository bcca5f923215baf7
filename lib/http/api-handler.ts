import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { serviceError, type ExactError, type ServiceError } from '../errors/index.js';
import type { SafeLogFields } from '../logging/index.js';
import type { RequestBodies, SchemaName } from '../validation/index.js';
import type { Expand } from './idempotency.js';
import type { Answer } from './middleware/state.js';
import { httpPipeline } from './pipeline.js';
import { errorResponse, jsonResponse, type HttpResponse } from './response.js';

/**
 * The POST routes' handler: the shared pipeline (./pipeline.ts) with every step (strict JSON body,
 * validation, Idempotency-Key, the authorizer's client id), and a route that answers with a value:
 * its outcome becomes the response here, so a 4xx answer can be stored and replayed like a 200.
 */

/**
 * The REST API Lambda proxy event (payload 1.0) API Gateway hands a route after the REQUEST
 * authorizer allowed it: the authorizer's context fields sit directly in `requestContext.authorizer`.
 */
export type ApiEvent = APIGatewayProxyEvent & {
  requestContext: APIGatewayProxyEvent['requestContext'] & { authorizer?: { clientId?: string } | null };
};

export interface ApiHandlerOptions {
  /** DynamoDB table for Idempotency-Key records; a key sent without one is a configuration error. */
  idempotencyTable?: string;
  /** Rebuilds a body from the `compact` form the route gave (./idempotency.ts). */
  expand?: Expand;
}

interface RouteInput<B> {
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

export function apiHandler<N extends SchemaName>(routeName: string, schema: N, route: Route<RequestBodies[N]>, options: ApiHandlerOptions = {}) {
  const handler = httpPipeline({
    name: routeName,
    body: schema,
    authorized: true,
    idempotency: { ...(options.idempotencyTable ? { table: options.idempotencyTable } : {}), ...(options.expand ? { expand: options.expand } : {}) },
    answer: async ({ body, clientId, requestId }) => answerOf(await route({ body: body as RequestBodies[N], clientId: clientId!, requestId }), requestId),
  });
  return handler as (event: ApiEvent, context: Context) => Promise<HttpResponse>;
}
