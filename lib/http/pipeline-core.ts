import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { ServiceFailure, serviceError } from '../errors/index.js';
import { inRequestScope } from '../logging/index.js';
import { headerOf } from './headers.js';
import { accessLog } from './middleware/access-log.js';
import { cors } from './middleware/cors.js';
import { errorHandler } from './middleware/error-handler.js';
import { normaliseHeaders } from './middleware/normalise-headers.js';
import { refuseRepeatedHeaders } from './middleware/refuse-repeated-headers.js';
import { requestContext } from './middleware/request-context.js';
import type { Answer, HttpEvent, PipelineInternal, PipelineMiddleware, PipelineState } from './middleware/state.js';
import { preferredType } from './negotiate.js';
import type { HttpResponse } from './response.js';

/**
 * The steps of the one HTTP pipeline (./pipeline.ts) that every route runs, composed here once:
 *
 *   request context (request id, log scope, start time) → header normalising → repeated-header
 *   refusal → [the route's body steps] → the route's answer → CORS → access log,
 *
 * with the error handler turning any step's failure into its answer. The body steps (strict JSON
 * body, validation, Idempotency-Key) are given by the caller: ./pipeline.ts builds them from a
 * route's spec, and a route without a body (health, the OpenAPI document, the API reference, the
 * catch-all, the payer directory) calls this with none, so its bundle carries no validators, no
 * Idempotency-Key store and no AWS SDK (docs/deployment.md#cold-starts).
 */

export interface AnswerInput {
  event: HttpEvent;
  requestId: string;
  /** The authorizer's client id (always set when the spec is `authorized`). */
  clientId?: string;
  /** The body the body steps read (and validated), when the route reads one. */
  body?: unknown;
}

export interface CorePipelineSpec {
  /** The route's name on its access-log line. */
  name: string;
  /** The route is behind the authorizer: its `clientId` must be in the event. */
  authorized?: boolean;
  answer: (input: AnswerInput) => Promise<Answer>;
  /**
   * Other media types a 200 answer can be given in, by `Accept` (./negotiate.ts), each rendered from
   * the JSON answer and the request body (docs/api.md#printable-summary). JSON stays the default and
   * errors stay JSON. The render runs after the Idempotency-Key step, so the key keeps the JSON answer
   * and a replay renders it again: a render must give the same bytes for the same answer.
   */
  representations?: Readonly<Record<string, Render>>;
}

/** Renders a JSON answer (parsed) and the request body it answered as another media type's bytes. */
export type Render = (answer: unknown, request: unknown) => Promise<Uint8Array>;

const JSON_TYPE = 'application/json';

/** The media type the request's `Accept` picks among JSON and the route's other representations; a 406 when none. */
function negotiated(spec: CorePipelineSpec, event: HttpEvent): string {
  if (!spec.representations) return JSON_TYPE;
  const type = preferredType(headerOf(event.headers, 'accept'), [JSON_TYPE, ...Object.keys(spec.representations)]);
  if (type === undefined) throw new ServiceFailure(serviceError('NOT_ACCEPTABLE'));
  return type;
}

/** A 200 JSON answer in `type`, base64 for API Gateway (a binary media type of the REST API); anything else as it is. */
async function represented(response: HttpResponse, type: string, render: Render | undefined, request: unknown): Promise<HttpResponse> {
  if (!render || response.statusCode !== 200) return response;
  const bytes = await render(JSON.parse(response.body), request);
  return {
    ...response,
    headers: { ...response.headers, 'content-type': type },
    body: Buffer.from(bytes).toString('base64'),
    isBase64Encoded: true,
  };
}

/** What a route runs between the header checks and its answer, and whether its answer gets the body they read. */
export interface BodySteps {
  steps: readonly PipelineMiddleware[];
  readsBody: boolean;
}

/** The Lambda handler; the context is optional for functions that never read it (the public routes). */
export type PipelineHandler = (event: HttpEvent, context?: Context) => Promise<HttpResponse>;

const NO_BODY: BodySteps = { steps: [], readsBody: false };

export function corePipeline(spec: CorePipelineSpec, body: BodySteps = NO_BODY): PipelineHandler {
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
      ...(body.readsBody ? { body: state.body } : {}),
    };
    const type = negotiated(spec, event);
    const answer = await state.run(() => spec.answer(input), context);
    Object.assign(state.log, answer.log);
    return represented(answer.response, type, spec.representations?.[type], state.body);
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
  for (const step of body.steps) chain.use(step);

  // Each invocation logs in its own scope: concurrent requests (the local server) never share a request id.
  return (event, context) => inRequestScope(() => chain(event, context ?? ({} as Context)));
}
