import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { ServiceFailure, serviceError, type ExactError, type ServiceError } from '../errors/index.js';
import { describeException, inRequestScope, log, withRequestKeys, type SafeLogFields } from '../logging/index.js';
import { validateBody, type RequestBodies, type SchemaName } from '../validation/index.js';
import { corsHeaders, corsPolicy } from './cors.js';
import { lowerCaseHeaders } from './headers.js';
import { readIdempotencyKey, runIdempotent } from './idempotency.js';
import { readJsonBody } from './json-body.js';
import { requestIdFor } from './request-id.js';
import { errorResponse, jsonResponse, type HttpResponse } from './response.js';

/**
 * The one HTTP pipeline every route shares (middy): request id and lower-cased headers → strict
 * JSON body (415 / 400, ./json-body.ts) → schema validation (400 with every problem) →
 * Idempotency-Key (400 when malformed; replay / 409 / 422, docs/runtime.md#idempotency) → the
 * route → response with x-request-id, and one access log line per request that names the route,
 * status and latency but never the body.
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
}

export interface RouteInput<B> {
  body: B;
  clientId: string;
  requestId: string;
}

/** A route's answer; `log` fields (no patient data by type) join the request's one access-log line. */
export type RouteOutcome = ({ ok: true; status?: number; body: unknown } | { ok: false; error: ServiceError | ExactError }) & {
  log?: SafeLogFields;
};

export type Route<B> = (input: RouteInput<B>) => Promise<RouteOutcome>;

/**
 * Lambda refuses a synchronous response over 6 MB (headers and JSON escaping included), which API
 * Gateway turns into a bare 502; a body is kept well under that.
 */
export const MAX_ANSWER_BYTES = 5_000_000;

interface State {
  requestId: string;
  startedAt: number;
}

type Internal = { state?: State };

/** Fields a route adds to its request's access-log line, keyed by the event being handled. */
const routeLogFields = new WeakMap<object, SafeLogFields>();

/**
 * The request's id (the caller's valid X-Request-Id, else API Gateway's, else a fresh one; written
 * back on the event so the route sees the same one) and start time.
 */
function stateOf(request: { internal: Internal; event: ApiEvent }): State {
  if (!request.internal.state) {
    const event = request.event;
    const requestId = requestIdFor(event?.headers, event?.requestContext?.requestId);
    if (event && typeof event === 'object') event.requestContext = { ...event.requestContext, requestId };
    request.internal.state = { requestId, startedAt: performance.now() };
  }
  return request.internal.state;
}

export function apiHandler<N extends SchemaName>(routeName: string, schema: N, route: Route<RequestBodies[N]>, options: ApiHandlerOptions = {}) {
  const requestState: MiddlewareObj<ApiEvent, HttpResponse, Error, Context, Internal> = {
    before: (request) => {
      withRequestKeys(stateOf(request).requestId);
      // REST proxy events keep the client's header casing; from here on every name is lower case.
      if (request.event && typeof request.event === 'object') request.event.headers = lowerCaseHeaders(request.event.headers);
    },
    after: (request) => {
      addCorsHeaders(request);
      accessLog(routeName, stateOf(request), request.response?.statusCode ?? 500, undefined, routeLogFields.get(request.event));
    },
    onError: (request) => {
      const state = stateOf(request);
      const error = request.error;
      let failure: ServiceError | ExactError | undefined = error instanceof ServiceFailure ? error.failure : undefined;
      if (!failure) {
        log.error('unhandled exception', { route: routeName, ...describeException(error) });
        failure = serviceError('INTERNAL_ERROR');
      }
      request.response = errorResponse(failure, state.requestId);
      addCorsHeaders(request);
      accessLog(routeName, state, failure.status, 'code' in failure ? failure.code : undefined, routeLogFields.get(request.event));
    },
  };

  const core = async (event: ApiEvent, context: Context): Promise<HttpResponse> => {
    const requestId = event.requestContext.requestId;
    const body = readJsonBody(event);
    if (!body.ok) throw new ServiceFailure(body.error);
    const valid = validateBody(schema, body.value);
    if (!valid.ok) throw new ServiceFailure(valid.error);
    const key = readIdempotencyKey(event.headers);
    if (!key.ok) throw new ServiceFailure(key.error);
    const clientId = event.requestContext?.authorizer?.clientId;
    if (!clientId) throw new Error('route reached without an authorizer context');

    // Route errors become responses here (not exceptions), so a 4xx answer can be stored and replayed.
    const run = async (): Promise<HttpResponse> => {
      const outcome = await route({ body: valid.value, clientId, requestId });
      const fields: SafeLogFields = { ...outcome.log };
      if (!outcome.ok && 'code' in outcome.error) fields.code = outcome.error.code;
      routeLogFields.set(event, fields);
      if (!outcome.ok) return errorResponse(outcome.error, requestId);
      const response = jsonResponse(outcome.status ?? 200, outcome.body, requestId);
      if (Buffer.byteLength(response.body) > MAX_ANSWER_BYTES) {
        // Lists are capped where they are built; this catches any that is not (docs/security.md#answer-size).
        routeLogFields.set(event, { ...fields, code: 'UPSTREAM_ERROR' });
        return errorResponse(serviceError('UPSTREAM_ERROR', { message: 'The answer built from the upstream reply is too large to return' }), requestId);
      }
      return response;
    };
    if (key.value === undefined) return run();
    if (!options.idempotencyTable) {
      throw new ServiceFailure(serviceError('CONFIGURATION_ERROR', { message: 'Idempotency-Key was sent but IDEMPOTENCY_TABLE is not configured' }));
    }
    const { response, idempotency } = await runIdempotent(
      { table: options.idempotencyTable, route: routeName, clientId, key: key.value, body: valid.value, requestId, context },
      run,
    );
    routeLogFields.set(event, { ...routeLogFields.get(event), idempotency });
    return response;
  };

  const handler = middy<ApiEvent, HttpResponse, Error, Context, Internal>(core as never, { timeoutEarlyInMillis: 0 }).use(requestState);
  // Each invocation logs in its own scope: concurrent requests (the local server) never share a request id.
  return (event: ApiEvent, context: Context): Promise<HttpResponse> => inRequestScope(() => handler(event, context));
}

/** CORS headers for an allowed Origin (docs/api.md#cors); nothing when CORS is off. */
function addCorsHeaders(request: { event: ApiEvent; response: HttpResponse | null | undefined }): void {
  const cors = corsHeaders(corsPolicy(), request.event?.headers);
  if (request.response && Object.keys(cors).length > 0) request.response.headers = { ...request.response.headers, ...cors };
}

function accessLog(route: string, state: State, status: number, code?: string, extra?: SafeLogFields): void {
  const fields: SafeLogFields = { ...extra, route, status, latencyMs: Math.round((performance.now() - state.startedAt) * 100) / 100 };
  if (code) fields.code = code;
  log.info('request', fields);
}
