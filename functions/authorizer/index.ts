import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { allowPolicy, decide, denyPolicy, loadClients } from '../../lib/auth/index.js';
import { headerOf, repeatedHeader, requestIdFor } from '../../lib/http/index.js';
import { describeException, inRequestScope, log, withRequestKeys } from '../../lib/logging/index.js';

/**
 * REST API Lambda REQUEST authorizer (identity source: the Authorization header). Allowed → an
 * Allow policy with `clientId` and the client's usage-plan key; unknown or malformed token, or an
 * Authorization header sent more than once → a Deny policy (the gateway answers 403); no header →
 * throws "Unauthorized" (the gateway answers 401); token store unreadable → throws anything else
 * (the gateway answers 500 and caches nothing). It decides on the one Authorization value, the
 * value the gateway's cache is keyed by (docs/runtime.md#authorizer). Log lines carry the request id.
 */
export const handler = (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => inRequestScope(() => authorize(event));

async function authorize(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  withRequestKeys(requestIdFor(event.headers, event.requestContext?.requestId));
  let clients: Awaited<ReturnType<typeof loadClients>>;
  try {
    clients = await loadClients();
  } catch (error) {
    log.error('token store unreadable', { route: event.resource, ...describeException(error) });
    throw new Error('token store unavailable');
  }
  // Every copy, whatever the casing (the event keeps it, so `Authorization` and `authorization` can be two keys).
  const copies = event.multiValueHeaders ?? Object.fromEntries(Object.entries(event.headers ?? {}).map(([name, value]) => [name, [value]]));
  if (repeatedHeader(copies, ['Authorization'])) {
    log.info('authorizer denied: Authorization sent more than once', { route: event.resource });
    return denyPolicy(event.methodArn);
  }
  const decision = decide(headerOf(event.headers, 'authorization'), clients);
  if (decision.kind === 'unauthorized') throw new Error('Unauthorized');
  if (decision.kind === 'deny') {
    log.info('authorizer denied', { route: event.resource });
    return denyPolicy(event.methodArn);
  }
  return allowPolicy(decision.client, event.methodArn);
}
