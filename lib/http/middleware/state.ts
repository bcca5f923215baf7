import type { MiddlewareObj, Request } from '@middy/core';
import type { Context } from 'aws-lambda';
import type { SafeLogFields } from '../../logging/index.js';
import type { HeaderMap } from '../headers.js';
import type { HttpResponse } from '../response.js';

/**
 * What the pipeline's middlewares (lib/http/pipeline.ts) share about one request: the request id,
 * the body once read and validated, how the answer is run (plainly, or under an Idempotency-Key),
 * and the fields that join the request's one access-log line. It lives in middy's per-request
 * `internal`, so concurrent requests never share it.
 */

/**
 * Any API Gateway event the pipeline serves: REST proxy events for the POST routes and the
 * catch-all, and the minimal shape the public GET routes read (headers and a request id).
 */
export interface HttpEvent {
  headers?: HeaderMap;
  multiValueHeaders?: Record<string, string[] | undefined> | null;
  body?: string | null;
  isBase64Encoded?: boolean;
  httpMethod?: string;
  path?: string;
  requestContext?: { requestId?: string; authorizer?: { clientId?: string } | null } | null;
}

/** A route's answer, with what the access log and the idempotency store need to know about it. */
export interface Answer {
  response: HttpResponse;
  /** Patient-free fields for the request's access-log line. */
  log?: SafeLogFields;
  /** The answer embeds a transient failure (a COB part that was unavailable): never stored under a key. */
  transient?: boolean;
  /**
   * A small form the answer's body can be rebuilt from byte for byte (the letter's render input),
   * stored under an Idempotency-Key when the answer itself is too large for the store.
   */
  compact?: unknown;
}

/** Runs the route's answer: plainly, or (installed by the idempotency middleware) at most once per key. */
type AnswerRunner = (answer: () => Promise<Answer>, context: Context) => Promise<Answer>;

export interface PipelineState {
  requestId: string;
  startedAt: number;
  /** The parsed JSON body, then the validated one. */
  body?: unknown;
  run: AnswerRunner;
  log: SafeLogFields;
}

export type PipelineInternal = { state?: PipelineState };
export type PipelineRequest = Request<HttpEvent, HttpResponse, Error, Context, PipelineInternal>;
/** One step of the pipeline. */
export type PipelineMiddleware = MiddlewareObj<HttpEvent, HttpResponse, Error, Context, PipelineInternal>;

/** The request's state; the request-context middleware creates it before any other step runs. */
export function stateOf(request: PipelineRequest): PipelineState {
  const state = request.internal.state;
  if (!state) throw new Error('pipeline state read before the request-context middleware ran');
  return state;
}
