import { inRequestScope, log, withRequestKeys } from '../logging/index.js';
import { corsHeaders, corsPolicy } from './cors.js';
import type { HeaderMap } from './headers.js';
import { requestIdFor } from './request-id.js';
import { jsonResponse, type HttpResponse } from './response.js';

/**
 * A handler for the unauthenticated GET routes (health, OpenAPI document): no body, no
 * validation; the same request id, CORS headers and access-log line as every other route. It
 * reads only `headers` and `requestContext.requestId`, which every API Gateway event format has.
 */

export interface PublicEvent {
  headers?: HeaderMap;
  requestContext?: { requestId?: string } | null;
}

export function publicHandler(routeName: string, answer: () => { status: number; body: unknown }) {
  return async (event: PublicEvent): Promise<HttpResponse> => inRequestScope(() => {
    const startedAt = performance.now();
    const requestId = requestIdFor(event?.headers, event?.requestContext?.requestId ?? undefined);
    withRequestKeys(requestId);
    const { status, body } = answer();
    const response = jsonResponse(status, body, requestId, corsHeaders(corsPolicy(), event?.headers));
    log.info('request', { route: routeName, status, latencyMs: Math.round((performance.now() - startedAt) * 100) / 100 });
    return response;
  });
}
