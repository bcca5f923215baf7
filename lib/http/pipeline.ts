import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { inRequestScope } from '../logging/index.js';
import type { SchemaName } from '../validation/index.js';
import { accessLog } from './middleware/access-log.js';
import { cors } from './middleware/cors.js';
import { errorHandler } from './middleware/error-handler.js';
import { idempotency, type IdempotencyOptions } from './middleware/idempotency.js';
import { jsonBody, type BodyReader } from './middleware/json-body.js';
import { normaliseHeaders } from './middleware/normalise-headers.js';
import { refuseRepeatedHeaders } from './middleware/refuse-repeated-headers.js';
import { requestContext } from './middleware/request-context.js';
import type { Answer, HttpEvent, PipelineInternal, PipelineState } from './middleware/state.js';
import { validateRequestBody } from './middleware/validate-body.js';
import type { HttpResponse } from './response.js';

/**
 * The one HTTP pipeline every function shares (middy), composed here once:
 *
 *   request context (request id, log scope, start time) → header normalising → repeated-header
 *   refusal → strict JSON body → validation → Idempotency-Key → the route's answer → CORS →
 *   access log, with the error handler turning any step's failure into its answer.
 *
 * The POST routes use every step; MCP reads its JSON body without a schema or an Idempotency-Key;
 * the authenticated GET routes (payers, batch reads) take no body; the public GET routes (health,
 * OpenAPI) and the catch-all (404, 405, preflight) are the same chain without body, validation,
 * idempotency and the authorizer's client id, by configuration (docs/runtime.md#the-http-pipeline).
 * Each step is a module in ./middleware/.
 */

interface AnswerInput {
  event: HttpEvent;
  requestId: string;
  /** The authorizer's client id (always set when the spec is `authorized`). */
  clientId?: string;
  /** The validated body (when the spec has a `body` schema). */
  body?: unknown;
}

export interface PipelineSpec {
  /** The route's name on its access-log line. */
  name: string;
  /** Read a strict JSON body and validate it against this schema (the POST routes). */
  body?: SchemaName;
  /** Read the body with this instead (no schema step): a route that validates its own body or hands it on (MCP). */
  readBody?: BodyReader;
  /** The route is behind the authorizer: its `clientId` must be in the event. */
  authorized?: boolean;
  /** Accept an Idempotency-Key (the POST routes). */
  idempotency?: IdempotencyOptions;
  answer: (input: AnswerInput) => Promise<Answer>;
}

/** The Lambda handler; the context is optional for functions that never read it (the public routes). */
export type PipelineHandler = (event: HttpEvent, context?: Context) => Promise<HttpResponse>;

export function httpPipeline(spec: PipelineSpec): PipelineHandler {
  // Per pipeline, not per module: the route step finds its request's state by the event it serves.
  const states = new WeakMap<object, PipelineState>();

  const route = async (event: HttpEvent, context: Context): Promise<HttpResponse> => {
    const state = states.get(event);
    if (!state) throw new Error('route reached without pipeline state');
    const clientId = event.requestContext?.authorizer?.clientId;
    if (spec.authorized && !clientId) throw new Error('route reached without an authorizer context');
    const input: AnswerInput = {
      event,
      requestId: state.requestId,
      ...(clientId ? { clientId } : {}),
      ...(spec.body || spec.readBody ? { body: state.body } : {}),
    };
    const answer = await state.run(() => spec.answer(input), context);
    Object.assign(state.log, answer.log);
    return answer.response;
  };

  // middy runs `before` steps in this order and `after` / `onError` steps in reverse: the error
  // handler answers first, then CORS, then the access log writes the line.
  const chain = middy<HttpEvent, HttpResponse, Error, Context, PipelineInternal>(route, { timeoutEarlyInMillis: 0 })
    .use(requestContext((event, state) => states.set(event, state)))
    .use(accessLog(spec.name))
    .use(cors())
    .use(errorHandler(spec.name))
    .use(normaliseHeaders())
    .use(refuseRepeatedHeaders());
  if (spec.body) chain.use(jsonBody()).use(validateRequestBody(spec.body));
  else if (spec.readBody) chain.use(jsonBody(spec.readBody));
  if (spec.idempotency) chain.use(idempotency(spec.name, spec.idempotency));

  // Each invocation logs in its own scope: concurrent requests (the local server) never share a request id.
  return (event, context) => inRequestScope(() => chain(event, context ?? ({} as Context)));
}
