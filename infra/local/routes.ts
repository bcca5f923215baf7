import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';

/**
 * The functions behind the API's routes, for the local server and `npm run invoke`. Which
 * method and path reach which function is lib/http/routes.ts (the one route table).
 */

export type ApiHandler = (event: APIGatewayProxyEventV2, context: unknown) => Promise<APIGatewayProxyResultV2>;
export type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEventV2) => Promise<{ isAuthorized: boolean; context?: Record<string, unknown> }>;

export const FUNCTIONS = {
  authorizer: () => import('../../functions/authorizer/index.js'),
  eligibility: () => import('../../functions/eligibility/index.js'),
  cob: () => import('../../functions/cob/index.js'),
  letter: () => import('../../functions/letter/index.js'),
  health: () => import('../../functions/health/index.js'),
  openapi: () => import('../../functions/openapi/index.js'),
  'not-found': () => import('../../functions/not-found/index.js'),
} as const;

export type FunctionName = keyof typeof FUNCTIONS;

export async function loadHandler(name: FunctionName): Promise<ApiHandler | AuthorizerHandler> {
  const module = (await FUNCTIONS[name]()) as { handler: ApiHandler | AuthorizerHandler };
  return module.handler;
}
