import type { SchemaName } from '../validation/index.js';
import { idempotency, type IdempotencyOptions } from './middleware/idempotency.js';
import { jsonBody, type BodyReader } from './middleware/json-body.js';
import type { PipelineMiddleware } from './middleware/state.js';
import { validateRequestBody } from './middleware/validate-body.js';
import { corePipeline, type CorePipelineSpec, type PipelineHandler } from './pipeline-core.js';

export type { PipelineHandler } from './pipeline-core.js';

/**
 * The one HTTP pipeline every function shares (middy), for the routes that read a body:
 *
 *   request context (request id, log scope, start time) → header normalising → repeated-header
 *   refusal → strict JSON body → validation → Idempotency-Key → the route's answer → CORS →
 *   access log, with the error handler turning any step's failure into its answer.
 *
 * The POST routes use every step; MCP reads its JSON body without a schema or an Idempotency-Key.
 * The fixed steps are composed once in ./pipeline-core.ts; the routes without a body (the payer
 * directory, health, the OpenAPI document, the API reference, the catch-all: 404, 405, preflight)
 * call it directly, with none of the body steps, so they bundle none of them
 * (docs/runtime.md#the-http-pipeline). Each step is a module in ./middleware/.
 */

export interface PipelineSpec extends CorePipelineSpec {
  /** Read a strict JSON body and validate it against this schema (the POST routes). */
  body?: SchemaName;
  /** Read the body with this instead (no schema step): a route that validates its own body or hands it on (MCP). */
  readBody?: BodyReader;
  /** Accept an Idempotency-Key (the POST routes). */
  idempotency?: IdempotencyOptions;
}

export function httpPipeline(spec: PipelineSpec): PipelineHandler {
  const steps: PipelineMiddleware[] = [];
  if (spec.body) steps.push(jsonBody(), validateRequestBody(spec.body));
  else if (spec.readBody) steps.push(jsonBody(spec.readBody));
  if (spec.idempotency) steps.push(idempotency(spec.name, spec.idempotency));
  return corePipeline(spec, { steps, readsBody: Boolean(spec.body || spec.readBody) });
}
