import type { APIGatewayProxyResult } from 'aws-lambda';
import type { ExactError, ServiceError } from '../errors/index.js';

/**
 * Response shaping for API Gateway REST API Lambda proxy integrations. Every response carries
 * x-request-id and `Cache-Control: no-store` (answers carry patient data; no cache on the way may keep them).
 */

/** Headers every answer carries, the local server's own answers included. */
export const NO_STORE = { 'cache-control': 'no-store' } as const;

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
  const body: Record<string, unknown> = { message: failure.message, code: failure.code, requestId };
  if (failure.errors) body.errors = failure.errors;
  if (failure.errorsTruncated) body.errorsTruncated = true;
  if (failure.rejections) body.rejections = failure.rejections;
  const headers: Record<string, string> = {};
  if (failure.retryAfterSeconds !== undefined) headers['retry-after'] = String(failure.retryAfterSeconds);
  return jsonResponse(failure.status, body, requestId, headers);
}
