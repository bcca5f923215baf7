import { corsAllowedOrigins, environment, type Env } from '../config/index.js';
import { headerOf, type HeaderMap } from './headers.js';

/**
 * CORS (docs/api.md#cors): off unless `CORS_ALLOWED_ORIGINS` (comma-separated origins) is set.
 * Then a preflight `OPTIONS` is answered 204 without authentication, and every response to an
 * allowed origin carries `Access-Control-Allow-Origin`; other origins get no CORS headers at all.
 */

export const CORS_ALLOW_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Request-Id';
/** Response headers a browser script may read. */
const CORS_EXPOSE_HEADERS = 'X-Request-Id, Retry-After, Idempotent-Replayed';
const PREFLIGHT_MAX_AGE_SECONDS = '600';

export interface CorsPolicy {
  origins: ReadonlySet<string>;
}

/** Origins compare without a trailing slash (a browser's Origin never has one). */
const normalise = (origin: string): string => origin.trim().replace(/\/+$/, '');

let cached: { source: string; policy: CorsPolicy | undefined } | undefined;

/** The policy `CORS_ALLOWED_ORIGINS` describes, or undefined when CORS is off. */
export function corsPolicy(env: Env = environment()): CorsPolicy | undefined {
  const source = corsAllowedOrigins(env);
  if (cached?.source === source) return cached.policy;
  const origins = new Set(source.split(',').map(normalise).filter(Boolean));
  const policy = origins.size > 0 ? { origins } : undefined;
  cached = { source, policy };
  return policy;
}

/** The origin of the request when the policy allows it. */
function allowedOrigin(policy: CorsPolicy | undefined, headers: HeaderMap): string | undefined {
  const origin = headerOf(headers, 'origin');
  return policy && origin !== undefined && policy.origins.has(normalise(origin)) ? origin.trim() : undefined;
}

/** Headers every (non-preflight) response adds: empty when CORS is off. */
export function corsHeaders(policy: CorsPolicy | undefined, headers: HeaderMap): Record<string, string> {
  if (!policy) return {};
  const origin = allowedOrigin(policy, headers);
  if (!origin) return { vary: 'Origin' };
  return { 'access-control-allow-origin': origin, 'access-control-expose-headers': CORS_EXPOSE_HEADERS, vary: 'Origin' };
}

/**
 * The answer to an `OPTIONS` request on a known path when CORS is on: 204, with the CORS
 * headers only for an allowed origin. `methods` are the path's methods from the route table.
 */
export function preflightHeaders(policy: CorsPolicy, headers: HeaderMap, methods: readonly string[]): Record<string, string> {
  const allow = [...methods, 'OPTIONS'].join(', ');
  const origin = allowedOrigin(policy, headers);
  if (!origin) return { allow, vary: 'Origin' };
  return {
    allow,
    'access-control-allow-origin': origin,
    'access-control-allow-methods': allow,
    'access-control-allow-headers': CORS_ALLOW_HEADERS,
    'access-control-max-age': PREFLIGHT_MAX_AGE_SECONDS,
    vary: 'Origin',
  };
}
