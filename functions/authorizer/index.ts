import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { decide, loadClients } from '../../lib/auth/authorizer.js';
import { allowPolicy, denyPolicy } from '../../lib/auth/policy.js';
import { headerOf } from '../../lib/http/headers.js';
import { describeException, log } from '../../lib/logging/index.js';

/**
 * REST API Lambda REQUEST authorizer (identity source: the Authorization header). Allowed → an
 * Allow policy with `clientId` and the client's usage-plan key; unknown or malformed token → a Deny
 * policy (the gateway answers 403); no header → throws "Unauthorized" (the gateway answers 401);
 * token store unreadable → throws anything else (the gateway answers 500 and caches nothing).
 */
export const handler = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  let clients;
  try {
    clients = await loadClients();
  } catch (error) {
    log.error('token store unreadable', { route: event.resource, ...describeException(error) });
    throw new Error('token store unavailable');
  }
  const decision = decide(headerOf(event.headers, 'authorization'), clients);
  if (decision.kind === 'unauthorized') throw new Error('Unauthorized');
  if (decision.kind === 'deny') {
    log.info('authorizer denied', { route: event.resource });
    return denyPolicy(event.methodArn);
  }
  return allowPolicy(decision.client, event.methodArn);
};
