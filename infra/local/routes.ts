import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';

/** The API's routes, shared by the local server, `npm run invoke` and (by name) the CDK stack. */

export type ApiHandler = (event: APIGatewayProxyEventV2, context: unknown) => Promise<APIGatewayProxyResultV2>;
export type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEventV2) => Promise<{ isAuthorized: boolean; context?: Record<string, unknown> }>;

export const FUNCTIONS = {
  authorizer: () => import('../../functions/authorizer/index.js'),
  eligibility: () => import('../../functions/eligibility/index.js'),
  cob: () => import('../../functions/cob/index.js'),
  letter: () => import('../../functions/letter/index.js'),
  'not-found': () => import('../../functions/not-found/index.js'),
} as const;

export type FunctionName = keyof typeof FUNCTIONS;

export const ROUTES: Partial<Record<string, Exclude<FunctionName, 'authorizer' | 'not-found'>>> = {
  'POST /api/eligibility/v1': 'eligibility',
  'POST /api/eligibility/cob/v1': 'cob',
  'POST /api/generate-letter': 'letter',
};

export async function loadHandler(name: FunctionName): Promise<ApiHandler | AuthorizerHandler> {
  const module = (await FUNCTIONS[name]()) as { handler: ApiHandler | AuthorizerHandler };
  return module.handler;
}
