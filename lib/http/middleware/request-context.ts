import { withRequestKeys } from '../../logging/index.js';
import { requestIdFor } from '../request-id.js';
import { stateOf, type PipelineRequest, type PipelineState, type PipelineMiddleware } from './state.js';

/**
 * First step of every request: its id (the caller's valid X-Request-Id, else API Gateway's, else a
 * fresh one; docs/api.md#request-ids), written back on the event so the route sees the same one,
 * the log scope's request id, and the start time the access log measures from.
 */
export function requestContext(onState: (event: object, state: PipelineState) => void): PipelineMiddleware {
  return {
    name: 'request-context',
    before: (request: PipelineRequest) => {
      const event = request.event;
      const requestId = requestIdFor(event?.headers, event?.requestContext?.requestId ?? undefined);
      if (event && typeof event === 'object') event.requestContext = { ...event.requestContext, requestId };
      request.internal.state = { requestId, startedAt: performance.now(), run: (answer) => answer(), log: {} };
      withRequestKeys(requestId);
      if (event && typeof event === 'object') onState(event, stateOf(request));
    },
  };
}
