import { FUNCTION_NAMES, FUNCTION_TABLE, type FunctionRoute, type HttpMethod, type RouteFunction } from './functions.js';

/**
 * The API's route table: every route of the function table (./functions.ts), in its order, with the
 * function that answers it. The local server, the 405/404 fallback, CORS preflight, the OpenAPI
 * document and the CDK stack all read it (docs/api.md#routes).
 */

export interface RouteEntry extends FunctionRoute {
  /** The Lambda function (functions/<name>/index.ts) that answers it. */
  function: RouteFunction;
}

export const ROUTE_TABLE: readonly RouteEntry[] = FUNCTION_NAMES.flatMap((name) =>
  FUNCTION_TABLE[name].routes.map((route): RouteEntry => ({ ...route, function: name as RouteFunction })),
);

/** What names a route's operation in the OpenAPI document: its own operation, else its function. */
export type RouteOperation = RouteFunction | NonNullable<RouteEntry['operation']>;
export const operationOf = (route: RouteEntry): RouteOperation => route.operation ?? route.function;

/** What a method and path resolve to. */
export type RouteMatch =
  | { kind: 'route'; route: RouteEntry }
  | { kind: 'method-not-allowed'; path: string; allow: HttpMethod[] }
  | { kind: 'not-found'; suggestion?: string };

/** Paths without a trailing slash, so `/api/health/` can be named in the 404's hint. */
const stripSlash = (path: string): string => (path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') : path);

/**
 * The values of a route path's `{name}` segments in a request path (`/api/payers/{payerId}` and
 * `/api/payers/60054` → `{payerId: '60054'}`); undefined when the path does not fit the pattern.
 * A parameter matches one non-empty segment, as API Gateway's `{name}` resources do.
 */
export function pathParametersOf(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (name && got[i] !== '') params[name] = decodeSegment(got[i]!);
    else if (part !== got[i]) return undefined;
  }
  return params;
}

const decodeSegment = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

const fits = (pattern: string, path: string): boolean => pathParametersOf(pattern, path) !== undefined;

/** The methods the table defines for a path (empty when the path is unknown). */
function methodsOf(path: string): HttpMethod[] {
  return ROUTE_TABLE.filter((route) => fits(route.path, path)).map((route) => route.method);
}

export function matchRoute(method: string, path: string): RouteMatch {
  const upper = method.toUpperCase();
  const route = ROUTE_TABLE.find((entry) => fits(entry.path, path) && entry.method === upper);
  if (route) return { kind: 'route', route };
  const allow = methodsOf(path);
  if (allow.length > 0) return { kind: 'method-not-allowed', path, allow };
  const bare = stripSlash(path);
  if (bare !== path && methodsOf(bare).length > 0) return { kind: 'not-found', suggestion: bare };
  const folded = ROUTE_TABLE.find((entry) => entry.path.toLowerCase() === bare.toLowerCase());
  return folded ? { kind: 'not-found', suggestion: folded.path } : { kind: 'not-found' };
}
