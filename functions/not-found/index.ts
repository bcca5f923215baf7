import { serviceError } from '../../lib/errors/index.js';
import { corePipeline, errorResponse, frontDoor } from '../../lib/http/index.js';
import { log } from '../../lib/logging/index.js';

/**
 * The catch-all (`/{proxy+}` and the other methods of known resources): any method or path no
 * route function answers, through the shared pipeline without body, validation and idempotency.
 * It resolves the request against the route table (lib/http/routes.ts): CORS preflight → 204,
 * known path with a wrong method → 405 METHOD_NOT_ALLOWED with `Allow`, anything else → 404
 * NOT_FOUND (API Gateway's own 404 would carry no code or request id).
 */
export const handler = corePipeline({
  name: 'not-found',
  answer: async ({ event, requestId }) => {
    const method = event.httpMethod ?? 'GET';
    const door = frontDoor({ method, path: event.path ?? '/', headers: event.headers });
    if (door.kind === 'route') {
      // The gateway sent a defined route here: a wiring mistake, not the caller's.
      log.error('defined route reached the catch-all function', { route: `${door.route.method} ${door.route.path}`, status: 500 });
      return { response: errorResponse(serviceError('INTERNAL_ERROR'), requestId), log: { method, code: 'INTERNAL_ERROR' } };
    }
    return { response: door.response(requestId), log: { method } };
  },
});
