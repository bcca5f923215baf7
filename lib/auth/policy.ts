import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import type { ClientToken } from './tokens.js';

/**
 * The REST API REQUEST authorizer's answer (docs/runtime.md#authorizer): an IAM policy that
 * allows or denies `execute-api:Invoke`, the caller's `clientId` in the context (routes read it
 * from `requestContext.authorizer.clientId`) and `usageIdentifierKey`, the client's usage-plan API
 * key, so the gateway applies that client's throttle and quota.
 *
 * The policy names every method of the stage (`…/<stage>/*`), not only the one called: API Gateway
 * caches the answer per Authorization header and reuses it for every route.
 */

/** `arn:aws:execute-api:<region>:<account>:<api>/<stage>/<METHOD>/<path>` → `…:<api>/<stage>/*`. */
function stageWildcard(methodArn: string): string {
  const [api, stage] = methodArn.split('/');
  return api && stage ? `${api}/${stage}/*` : methodArn;
}

function policy(effect: 'Allow' | 'Deny', resource: string): APIGatewayAuthorizerResult['policyDocument'] {
  return { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: resource }] };
}

export function allowPolicy(client: ClientToken, methodArn: string): APIGatewayAuthorizerResult {
  return {
    principalId: client.clientId,
    policyDocument: policy('Allow', stageWildcard(methodArn)),
    context: { clientId: client.clientId },
    ...(client.usageIdentifierKey ? { usageIdentifierKey: client.usageIdentifierKey } : {}),
  };
}

export function denyPolicy(methodArn: string): APIGatewayAuthorizerResult {
  return { principalId: 'unknown', policyDocument: policy('Deny', stageWildcard(methodArn)) };
}
