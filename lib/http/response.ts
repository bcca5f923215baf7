import type { APIGatewayProxyResult } from 'aws-lambda';
import type { FromSchema } from 'json-schema-to-ts';
import type { ExactError, ServiceError } from '../errors/index.js';
import type { errorResponseSchema } from '../validation/index.js';

/**
 * Response shaping for API Gateway REST API Lambda proxy integrations. Every response carries
 * x-request-id and `Cache-Control: no-store` (answers carry patient data; no cache on the way may keep them).
 */

/** Headers every answer carries, the local server's own answers included. */
export const NO_STORE = { 'cache-control': 'no-store' } as const;

/** An error answer's body (docs/api.md#errors), derived from its one declaration. */
export type ErrorBody = FromSchema<typeof errorResponseSchema>;

export type HttpResponse = APIGatewayProxyResult & { statusCode: number; headers: Record<string, string>; body: string };

export function jsonResponse(status: number, body: unknown, requestId: string, headers: Record<string, string> = {}): HttpResponse {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json', ...NO_STORE, 'x-request-id': requestId, ...headers },
    body: JSON.stringify(body),
  };
}

export function errorResponse(failure: ServiceError | ExactError, requestId: string): HttpResponse {
  if ('body' in failure) return jsonResponse(failure.status, failure.body, requestId);
  const body: ErrorBody = {
    message: failure.message,
    code: failure.code,
    requestId,
    ...(failure.errors ? { errors: failure.errors } : {}),
    ...(failure.errorsTruncated ? { errorsTruncated: true } : {}),
    ...(failure.rejections ? { rejections: failure.rejections } : {}),
  };
  const headers: Record<string, string> = {};
  if (failure.retryAfterSeconds !== undefined) headers['retry-after'] = String(failure.retryAfterSeconds);
  return jsonResponse(failure.status, body, requestId, headers);
}
