import { ServiceFailure, type Result } from '../../errors/index.js';
import { readJsonBody } from '../json-body.js';
import { stateOf, type HttpEvent, type PipelineRequest, type PipelineMiddleware } from './state.js';

/** Reads a request's body into a value (default: the strict JSON object). */
export type BodyReader = (event: HttpEvent) => Result<unknown>;

/**
 * The strict JSON body (docs/security.md#strict-json): 415 for another content type, 400 INVALID_JSON
 * otherwise. A route that also takes another type (the batch route's CSV) passes its own reader.
 */
export function jsonBody(read: BodyReader = readJsonBody): PipelineMiddleware {
  return {
    name: 'json-body',
    before: (request: PipelineRequest) => {
      const body = read(request.event);
      if (!body.ok) throw new ServiceFailure(body.error);
      stateOf(request).body = body.value;
    },
  };
}
