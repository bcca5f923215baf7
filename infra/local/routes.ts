import type { Writable } from 'node:stream';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { installAwsLambdaStandIn } from './awslambda.js';

/** The API's routes, shared by the local server, `npm run invoke` and (by name) the CDK stack. */

export type ApiHandler = (event: APIGatewayProxyEvent, context: unknown) => Promise<APIGatewayProxyResult>;
/** A handler wrapped with `awslambda.streamifyResponse` (the letter). */
export type StreamingHandler = (event: APIGatewayProxyEvent, responseStream: Writable, context: unknown) => Promise<void>;
export type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

export const FUNCTIONS = {
  authorizer: () => import('../../functions/authorizer/index.js'),
  eligibility: () => import('../../functions/eligibility/index.js'),
  cob: () => import('../../functions/cob/index.js'),
  letter: () => import('../../functions/letter/index.js'),
  'not-found': () => import('../../functions/not-found/index.js'),
} as const;

export type FunctionName = keyof typeof FUNCTIONS;

/** `METHOD /resource` → function; anything else goes to the catch-all `/{proxy+}` resource (not-found). */
export const ROUTES: Partial<Record<string, Exclude<FunctionName, 'authorizer' | 'not-found'>>> = {
  'POST /api/eligibility/v1': 'eligibility',
  'POST /api/eligibility/cob/v1': 'cob',
  'POST /api/generate-letter': 'letter',
};

export async function loadHandler(name: FunctionName): Promise<ApiHandler | StreamingHandler | AuthorizerHandler> {
  // Streaming functions call `awslambda.streamifyResponse` when imported; Lambda provides it, locally a stand-in does.
  installAwsLambdaStandIn();
  const module = (await FUNCTIONS[name]()) as unknown as { handler: ApiHandler | StreamingHandler | AuthorizerHandler };
  return module.handler;
}
