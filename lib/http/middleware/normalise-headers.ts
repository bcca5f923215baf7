import { lowerCaseHeaders } from '../headers.js';
import type { PipelineMiddleware, PipelineRequest } from './state.js';

/** REST proxy events keep the client's header casing; from this step on every name is lower case. */
export function normaliseHeaders(): PipelineMiddleware {
  return {
    name: 'normalise-headers',
    before: (request: PipelineRequest) => {
      if (request.event && typeof request.event === 'object') request.event.headers = lowerCaseHeaders(request.event.headers);
    },
  };
}
