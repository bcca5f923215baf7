/**
 * The API's route table: the one list of paths and methods. The local server, the 405/404
 * fallback, CORS preflight and the OpenAPI document all read it; the CDK stack wires the same
 * entries (docs/api.md#routes).
 */

type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'DELETE';

export interface RouteEntry {
  method: HttpMethod;
  path: string;
  /** The Lambda function (functions/<name>/index.ts) that answers it. */
  function: 'eligibility' | 'cob' | 'letter' | 'health' | 'openapi' | 'fhir' | 'payers' | 'mcp' | 'docs' | 'batch';
  /** Whether the bearer-token authorizer guards it. */
  auth: boolean;
  /** The route's operation in the OpenAPI document, when its function answers more than one route. */
  operation?: 'docsScript' | 'lookup' | 'batchStatus' | 'batchItems' | 'batchCancel';
}

export const ROUTE_TABLE = [
  { method: 'POST', path: '/api/eligibility/v1', function: 'eligibility', auth: true },
  { method: 'POST', path: '/api/eligibility/cob/v1', function: 'cob', auth: true },
  { method: 'POST', path: '/api/generate-letter', function: 'letter', auth: true },
  { method: 'POST', path: '/api/fhir/r4/CoverageEligibilityRequest/$submit', function: 'fhir', auth: true },
  { method: 'POST', path: '/api/eligibility/batch/v1', function: 'batch', auth: true },
  { method: 'GET', path: '/api/eligibility/batch/v1/{batchId}', function: 'batch', auth: true, operation: 'batchStatus' },
  { method: 'DELETE', path: '/api/eligibility/batch/v1/{batchId}', function: 'batch', auth: true, operation: 'batchCancel' },
  { method: 'GET', path: '/api/eligibility/batch/v1/{batchId}/items', function: 'batch', auth: true, operation: 'batchItems' },
  { method: 'GET', path: '/api/payers', function: 'payers', auth: true },
  { method: 'GET', path: '/api/payers/{payerId}', function: 'payers', auth: true, operation: 'lookup' },
  { method: 'POST', path: '/api/mcp', function: 'mcp', auth: true },
  { method: 'GET', path: '/api/health', function: 'health', auth: false },
  // Uptime monitors probe with HEAD: the same status and headers as GET, no body.
  { method: 'HEAD', path: '/api/health', function: 'health', auth: false },
  { method: 'GET', path: '/api/openapi.json', function: 'openapi', auth: false },
  // The interactive API reference of the OpenAPI document (docs/api.md#api-reference), and its script.
  { method: 'GET', path: '/api/docs', function: 'docs', auth: false },
  { method: 'GET', path: '/api/docs/scalar.js', function: 'docs', auth: false, operation: 'docsScript' },
] as const satisfies readonly RouteEntry[];

type RouteFunction = (typeof ROUTE_TABLE)[number]['function'];
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
