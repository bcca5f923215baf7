import type {
  APIGatewayRequestAuthorizerEventV2,
  APIGatewaySimpleAuthorizerResult,
  APIGatewaySimpleAuthorizerWithContextResult,
} from 'aws-lambda';
import { decide, loadClients } from '../../lib/auth/authorizer.js';
import { describeException, log } from '../../lib/logging/index.js';

/**
 * HTTP API Lambda authorizer, payload 2.0 with simple responses: `isAuthorized` plus the caller's
 * `clientId` in the context. API Gateway itself answers 401 when the header is missing, 403 when
 * this denies, and 500 when this throws (the token store could not be read).
 */
export const handler = async (
  event: APIGatewayRequestAuthorizerEventV2,
): Promise<APIGatewaySimpleAuthorizerResult | APIGatewaySimpleAuthorizerWithContextResult<{ clientId: string }>> => {
  let clients;
  try {
    clients = await loadClients();
  } catch (error) {
    log.error('token store unreadable', { route: event.routeKey, ...describeException(error) });
    throw new Error('token store unavailable');
  }
  const header = event.headers?.authorization ?? event.identitySource?.[0];
  const decision = decide(header, clients);
  if (!decision.isAuthorized) log.info('authorizer denied', { route: event.routeKey });
  return decision.context ? { isAuthorized: true, context: decision.context } : { isAuthorized: false };
};
