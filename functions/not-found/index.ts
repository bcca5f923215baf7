import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { serviceError } from '../../lib/errors/index.js';
import { errorResponse } from '../../lib/http/response.js';
import { log } from '../../lib/logging/index.js';

/**
 * The catch-all resource (`/{proxy+}`, any method): any method or path the API does not define
 * gets the 404 NOT_FOUND body with a request id (API Gateway's own 404 would carry neither).
 */
export const handler = async (event: APIGatewayProxyEvent) => {
  const requestId = event.requestContext?.requestId || randomUUID();
  log.info('request', { route: 'not-found', method: event.httpMethod, status: 404, code: 'NOT_FOUND' });
  return errorResponse(serviceError('NOT_FOUND'), requestId);
};
