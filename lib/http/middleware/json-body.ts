import { ServiceFailure } from '../../errors/index.js';
import { readJsonBody } from '../json-body.js';
import { stateOf, type PipelineRequest, type PipelineMiddleware } from './state.js';

/** The strict JSON body (docs/security.md#strict-json): 415 for another content type, 400 INVALID_JSON otherwise. */
export function jsonBody(): PipelineMiddleware {
  return {
    name: 'json-body',
    before: (request: PipelineRequest) => {
      const body = readJsonBody(request.event);
      if (!body.ok) throw new ServiceFailure(body.error);
      stateOf(request).body = body.value;
    },
  };
}
