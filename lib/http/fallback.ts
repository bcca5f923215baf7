import { environment, type Env } from '../config/index.js';
import { serviceError } from '../errors/index.js';
import { corsHeaders, corsPolicy, preflightHeaders } from './cors.js';
import type { HeaderMap } from './headers.js';
import { errorResponse, NO_STORE, type HttpResponse } from './response.js';
import { matchRoute, type RouteEntry } from './routes.js';

/**
 * What the API answers before any route runs (docs/api.md#routes): a CORS preflight (204, no
 * authentication), a known path with a wrong method (405 METHOD_NOT_ALLOWED with `Allow`, no
 * authentication: the route table is public in the OpenAPI document anyway), or an unknown path
 * (404 NOT_FOUND, with a hint when only a trailing slash or the letter case was wrong).
 * The local server and the gateway's catch-all function both call `frontDoor`.
 */

export interface RequestLine {
  method: string;
  path: string;
  headers: HeaderMap;
}

export type FrontDoor =
  | { kind: 'route'; route: RouteEntry }
  /** Answered here, without authentication. */
  | { kind: 'answer'; response: (requestId: string) => HttpResponse }
  /** Unknown path: a 404 once the caller is authenticated. */
  | { kind: 'not-found'; response: (requestId: string) => HttpResponse };

export function frontDoor({ method, path, headers }: RequestLine, env: Env = environment()): FrontDoor {
  const policy = corsPolicy(env);
  const cors = corsHeaders(policy, headers);
  const match = matchRoute(method, path);
  if (match.kind === 'route') return match;
  if (match.kind === 'method-not-allowed') {
    if (policy && method.toUpperCase() === 'OPTIONS') {
      const preflight = preflightHeaders(policy, headers, match.allow);
      return { kind: 'answer', response: (requestId) => ({ statusCode: 204, headers: { ...preflight, ...NO_STORE, 'x-request-id': requestId }, body: '' }) };
    }
    const allow = [...match.allow, ...(policy ? ['OPTIONS'] : [])].join(', ');
    const message = `${path} accepts only ${allow}`;
    return {
      kind: 'answer',
      response: (requestId) => withHeaders(errorResponse(serviceError('METHOD_NOT_ALLOWED', { message }), requestId), { ...cors, allow }),
    };
  }
  const message = match.suggestion ? `No route matches this method and path; did you mean ${match.suggestion}?` : undefined;
  return {
    kind: 'not-found',
    response: (requestId) => withHeaders(errorResponse(serviceError('NOT_FOUND', message ? { message } : {}), requestId), cors),
  };
}

function withHeaders(response: HttpResponse, headers: Record<string, string>): HttpResponse {
  return { ...response, headers: { ...response.headers, ...headers } };
}
