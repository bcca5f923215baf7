import type { IncomingMessage, ServerResponse } from 'node:http';
import { FUNCTION_TABLE, type FunctionName, type HttpResponse, NO_STORE } from '../../../lib/http/index.js';

/**
 * What the local gateway answers on its own (docs/runtime.md#local-gateway): the bodies API
 * Gateway's customised responses carry, the local server's own refusals (docs/security.md#local-server),
 * and how they are written. An answer given before the request's body was read closes the
 * connection, so the unread body is never read to keep the connection alive.
 */

export type GatewayAnswer = { status: number; body: Record<string, unknown>; headers?: Record<string, string> };

export const GATEWAY = {
  // RFC 6750: a 401 names the scheme the caller should use (docs/api.md#errors, docs/mcp.md#transport).
  unauthorized: { status: 401, body: { message: 'Unauthorized' }, headers: { 'www-authenticate': 'Bearer' } },
  forbidden: { status: 403, body: { message: 'Forbidden' } },
  tooManyRequests: (retryAfter: number) => ({ status: 429, body: { message: 'Too Many Requests' }, headers: { 'retry-after': String(retryAfter) } }),
  authorizerFailed: { status: 500, body: { message: 'Internal Server Error' } },
  integrationFailed: { status: 500, body: { message: 'Internal Server Error' } },
  integrationTimeout: { status: 504, body: { message: 'Endpoint request timed out' } },
  tooLarge: (requestId: string) => ({
    status: 413,
    body: { message: 'The request body is larger than 6 MiB', code: 'PAYLOAD_TOO_LARGE', requestId },
  }),
  tooManyHeaders: (limit: number) => ({ status: 431, body: { message: `The request has more than ${limit} headers` } }),
  /** The bytes of bodies held at once reached the cap: try again shortly rather than wait on a socket. */
  bodiesBusy: (retryAfter: number) => ({
    status: 503,
    body: { message: 'The server is holding as many request bodies as it allows; retry shortly' },
    headers: { 'retry-after': String(retryAfter) },
  }),
} as const satisfies Record<string, GatewayAnswer | ((...args: never[]) => GatewayAnswer)>;

/** Whether the request announced a body (Content-Length above 0, or chunked) that has not all arrived. */
export function bodyUnread(req: IncomingMessage): boolean {
  if (req.complete) return false;
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

/** Writes a gateway answer (JSON, no-store, the request id, the given extra headers such as CORS). */
export function send(res: ServerResponse, answer: GatewayAnswer, requestId: string, extraHeaders: Record<string, string> = {}): void {
  const text = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    ...extraHeaders,
    ...answer.headers,
    'content-type': 'application/json',
    ...NO_STORE,
    'x-request-id': requestId,
    'content-length': Buffer.byteLength(text),
    ...closeIfBodyUnread(res.req),
  });
  res.end(text);
}

/** Writes a function's (or the shared pipeline's) response. */
export function sendResponse(res: ServerResponse, response: HttpResponse, extraHeaders: Record<string, string> = {}): void {
  res.writeHead(response.statusCode, {
    ...extraHeaders,
    ...response.headers,
    'content-length': Buffer.byteLength(response.body),
    ...closeIfBodyUnread(res.req),
  });
  res.end(response.body);
}

const closeIfBodyUnread = (req: IncomingMessage | undefined): Record<string, string> => (req && bodyUnread(req) ? { connection: 'close' } : {});

/** Header name/value pairs as the client sent them (REST API events keep the casing). */
export function headerPairs(req: IncomingMessage): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) pairs.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
  return pairs;
}

/** The context Lambda passes; remaining time counts down from the function's timeout in the stack. */
export function lambdaContext(functionName: FunctionName, requestId: string) {
  const deadline = Date.now() + FUNCTION_TABLE[functionName].timeoutSeconds * 1000;
  return {
    functionName: `local-${functionName}`,
    awsRequestId: requestId,
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:local-${functionName}`,
    memoryLimitInMB: '1024',
    functionVersion: '$LATEST',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
}
