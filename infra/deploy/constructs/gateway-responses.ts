import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { ERROR_TABLE, EXACT, type ErrorCode } from '../../../lib/errors/index.js';
import { pascal } from '../ids.js';

/**
 * The answers API Gateway gives itself, before or instead of a function (docs/deployment.md#errors):
 * the exact 401/403/429 bodies of docs/api.md#errors, and the API's `{message, code, requestId}` shape for
 * the rest.
 */

export interface GatewayAnswer {
  /** Absent: API Gateway keeps the status of the specific error (DEFAULT_4XX / DEFAULT_5XX). */
  status?: number;
  body: string;
  headers: Record<string, string>;
}

/**
 * Each gateway response by type. Header values are mapping expressions: quoted literals, or a
 * request context variable. A gateway response cannot check the caller's Origin against a list, so
 * `Access-Control-Allow-Origin` is set only when exactly one origin is allowed (docs/api.md#cors).
 */
export function gatewayResponses(corsOrigins: string[] = []): Record<string, GatewayAnswer> {
  const headers = (extra: Record<string, string> = {}) => ({
    'Cache-Control': "'no-store'",
    'x-request-id': 'context.requestId',
    // A response header can only name one origin; with several, browsers see no CORS header here.
    ...(corsOrigins.length === 1 ? { 'Access-Control-Allow-Origin': `'${corsOrigins[0]}'`, Vary: "'Origin'" } : {}),
    ...extra,
  });
  const exact = (status: number, message: string, extra?: Record<string, string>): GatewayAnswer => ({
    status,
    body: JSON.stringify({ message }),
    headers: headers(extra),
  });
  const coded = (code: ErrorCode): GatewayAnswer => ({
    status: ERROR_TABLE[code].status,
    // $context.requestId is substituted by API Gateway when it renders the template.
    body: `{"message":${JSON.stringify(ERROR_TABLE[code].message)},"code":"${code}","requestId":"$context.requestId"}`,
    headers: headers(),
  });
  return {
    // No Authorization header (the identity source is missing): the authorizer is not even called.
    // Every route takes a bearer token, so every 401 names the scheme (RFC 6750; MCP clients read it).
    UNAUTHORIZED: exact(EXACT.UNAUTHORIZED.status, EXACT.UNAUTHORIZED.body.message, { 'WWW-Authenticate': "'Bearer'" }),
    // The authorizer denied the token.
    ACCESS_DENIED: exact(EXACT.FORBIDDEN.status, EXACT.FORBIDDEN.body.message),
    // The client has no usage-plan key (a token created without a plan, or its key was removed).
    INVALID_API_KEY: exact(EXACT.FORBIDDEN.status, EXACT.FORBIDDEN.body.message),
    // A managed WAF rule blocked the request (the rate and size rules answer for themselves).
    WAF_FILTERED: exact(EXACT.FORBIDDEN.status, EXACT.FORBIDDEN.body.message),
    // The client's plan: over its rate, or over its monthly quota.
    THROTTLED: exact(429, 'Too Many Requests', { 'Retry-After': "'1'" }),
    QUOTA_EXCEEDED: exact(429, 'Limit Exceeded'),
    // A path below a defined resource that no method or proxy covers.
    MISSING_AUTHENTICATION_TOKEN: coded('NOT_FOUND'),
    // API Gateway's own 10 MB request limit.
    REQUEST_TOO_LARGE: coded('PAYLOAD_TOO_LARGE'),
    // The token store could not be read: fail (and cache nothing) rather than deny.
    AUTHORIZER_FAILURE: coded('INTERNAL_ERROR'),
    AUTHORIZER_CONFIGURATION_ERROR: coded('INTERNAL_ERROR'),
    INTEGRATION_TIMEOUT: coded('UPSTREAM_TIMEOUT'),
    INTEGRATION_FAILURE: coded('INTERNAL_ERROR'),
    DEFAULT_4XX: { body: '{"message":$context.error.messageString,"requestId":"$context.requestId"}', headers: headers() },
    DEFAULT_5XX: { ...coded('INTERNAL_ERROR'), status: undefined },
  };
}

/** Puts every answer of gatewayResponses on the API. */
export function addGatewayResponses(api: RestApi, corsOrigins: string[]): void {
  for (const [type, response] of Object.entries(gatewayResponses(corsOrigins))) {
    api.addGatewayResponse(`${pascal(type.toLowerCase().replace(/_/g, '-'))}Response`, {
      type: ResponseType.of(type),
      ...(response.status === undefined ? {} : { statusCode: String(response.status) }),
      responseHeaders: response.headers,
      templates: { 'application/json': response.body },
    });
  }
}
