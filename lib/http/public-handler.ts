import type { HeaderMap } from './headers.js';
import { corePipeline } from './pipeline-core.js';
import { jsonResponse, NO_STORE, type HttpResponse } from './response.js';

/**
 * A handler for the unauthenticated GET routes (health, OpenAPI document, API reference): the shared
 * pipeline (./pipeline-core.ts) without body, validation, idempotency and client id, so the same request id,
 * header checks, CORS headers, error handling and access-log line as every other route. It reads only
 * `httpMethod`, `path`, `headers` and `requestContext.requestId`, which every REST API proxy event has.
 */

interface PublicEvent {
  httpMethod?: string;
  path?: string;
  headers?: HeaderMap;
  multiValueHeaders?: Record<string, string[] | undefined> | null;
  requestContext?: { requestId?: string } | null;
}

/** A JSON answer, or a text one (the API reference page and its script) with its content type and headers. */
export type PublicAnswer =
  | { status: number; body: unknown }
  | { status: number; text: string; contentType: string; headers?: Readonly<Record<string, string>> };

function responseOf(answer: PublicAnswer, requestId: string): HttpResponse {
  if (!('text' in answer)) return jsonResponse(answer.status, answer.body, requestId);
  return {
    statusCode: answer.status,
    headers: { 'content-type': answer.contentType, ...NO_STORE, 'x-request-id': requestId, ...answer.headers },
    body: answer.text,
  };
}

/** `answer` gets the request's path (without the stage), for a function that serves more than one route. */
export function publicHandler(routeName: string, answer: (path: string) => PublicAnswer) {
  return corePipeline({
    name: routeName,
    answer: async ({ event, requestId }) => {
      const response = responseOf(answer(event.path ?? ''), requestId);
      // HEAD (uptime monitors): the GET answer's status and headers, without its body.
      return { response: event.httpMethod?.toUpperCase() === 'HEAD' ? { ...response, body: '' } : response };
    },
  }) as (event: PublicEvent) => Promise<HttpResponse>;
}
