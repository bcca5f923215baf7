import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { serviceError } from '../../lib/errors/index.js';
import { errorResponse } from '../../lib/http/response.js';
import { log } from '../../lib/logging/index.js';

/**
 * The `$default` route: any method or path the API does not define gets the contract's
 * 404 NOT_FOUND body (API Gateway's own 404 would carry no code or request id).
 */
export const handler = async (event: APIGatewayProxyEventV2) => {
  const requestId = event.requestContext?.requestId || randomUUID();
  log.info('request', { route: 'not-found', method: event.requestContext?.http?.method, status: 404, code: 'NOT_FOUND' });
  return errorResponse(serviceError('NOT_FOUND'), requestId);
};
