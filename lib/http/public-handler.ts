import type { HeaderMap } from './headers.js';
import { httpPipeline } from './pipeline.js';
import { jsonResponse, type HttpResponse } from './response.js';

/**
 * A handler for the unauthenticated GET routes (health, OpenAPI document): the shared pipeline
 * (./pipeline.ts) without body, validation, idempotency and client id, so the same request id,
 * header checks, CORS headers, error handling and access-log line as every other route. It reads
 * only `httpMethod`, `headers` and `requestContext.requestId`, which every REST API proxy event has.
 */

export interface PublicEvent {
  httpMethod?: string;
  headers?: HeaderMap;
  multiValueHeaders?: Record<string, string[] | undefined> | null;
  requestContext?: { requestId?: string } | null;
}

export function publicHandler(routeName: string, answer: () => { status: number; body: unknown }) {
  return httpPipeline({
    name: routeName,
    answer: async ({ event, requestId }) => {
      const { status, body } = answer();
      const response = jsonResponse(status, body, requestId);
      // HEAD (uptime monitors): the GET answer's status and headers, without its body.
      return { response: event.httpMethod?.toUpperCase() === 'HEAD' ? { ...response, body: '' } : response };
    },
  }) as (event: PublicEvent) => Promise<HttpResponse>;
}
