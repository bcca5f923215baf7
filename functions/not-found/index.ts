import type { APIGatewayProxyEvent } from 'aws-lambda';
import { serviceError } from '../../lib/errors/index.js';
import { frontDoor } from '../../lib/http/fallback.js';
import { requestIdFor } from '../../lib/http/request-id.js';
import { errorResponse } from '../../lib/http/response.js';
import { inRequestScope, log, withRequestKeys } from '../../lib/logging/index.js';

/**
 * The catch-all (`/{proxy+}` and the other methods of known resources): any method or path no
 * route function answers. It resolves the request against the route table (lib/http/routes.ts):
 * CORS preflight → 204, known path with a wrong method → 405 METHOD_NOT_ALLOWED with `Allow`,
 * anything else → 404 NOT_FOUND (API Gateway's own 404 would carry no code or request id).
 */
export const handler = (event: APIGatewayProxyEvent) => inRequestScope(() => catchAll(event));

async function catchAll(event: APIGatewayProxyEvent) {
  const method = event.httpMethod ?? 'GET';
  const path = event.path ?? '/';
  const requestId = requestIdFor(event.headers, event.requestContext?.requestId);
  withRequestKeys(requestId);
  const door = frontDoor({ method, path, headers: event.headers });
  if (door.kind === 'route') {
    // The gateway sent a defined route here: a wiring mistake, not the caller's.
    log.error('defined route reached the catch-all function', { route: `${door.route.method} ${door.route.path}`, status: 500 });
    return errorResponse(serviceError('INTERNAL_ERROR'), requestId);
  }
  const reply = door.response(requestId);
  log.info('request', { route: 'not-found', method, status: reply.statusCode });
  return reply;
}
