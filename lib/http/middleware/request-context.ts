import { withRequestKeys } from '../../logging/index.js';
import { repeatedHeader } from '../repeated-headers.js';
import { requestIdFor } from '../request-id.js';
import { stateOf, type PipelineRequest, type PipelineState, type PipelineMiddleware } from './state.js';

/**
 * First step of every request: its id (the caller's valid X-Request-Id, else API Gateway's, else a
 * fresh one; docs/api.md#request-ids; a caller's X-Request-Id sent twice is not used, and the request is
 * refused by ./refuse-repeated-headers.ts), written back on the event so the route sees the same one,
 * the log scope's request id, and the start time the access log measures from.
 */
export function requestContext(onState: (event: object, state: PipelineState) => void): PipelineMiddleware {
  return {
    name: 'request-context',
    before: (request: PipelineRequest) => {
      const event = request.event;
      const callerIdSentTwice = repeatedHeader(event?.multiValueHeaders, ['X-Request-Id']) !== undefined;
      const requestId = requestIdFor(callerIdSentTwice ? {} : event?.headers, event?.requestContext?.requestId ?? undefined);
      if (event && typeof event === 'object') event.requestContext = { ...event.requestContext, requestId };
      request.internal.state = { requestId, startedAt: performance.now(), run: (answer) => answer(), log: {} };
      withRequestKeys(requestId);
      if (event && typeof event === 'object') onState(event, stateOf(request));
    },
  };
}
