import type { Writable } from 'node:stream';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { installAwsLambdaStandIn } from './awslambda.js';

/**
 * The functions behind the API's routes, for the local server and `npm run invoke`. Which
 * method and path reach which function is lib/http/routes.ts (the one route table).
 */

export type ApiHandler = (event: APIGatewayProxyEvent, context: unknown) => Promise<APIGatewayProxyResult>;
/** A handler wrapped with `awslambda.streamifyResponse` (the letter). */
export type StreamingHandler = (event: APIGatewayProxyEvent, responseStream: Writable, context: unknown) => Promise<void>;
export type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

export const FUNCTIONS = {
  authorizer: () => import('../../functions/authorizer/index.js'),
  eligibility: () => import('../../functions/eligibility/index.js'),
  cob: () => import('../../functions/cob/index.js'),
  payers: () => import('../../functions/payers/index.js'),
  batch: () => import('../../functions/batch/index.js'),
  'batch-worker': () => import('../../functions/batch-worker/index.js'),
  'batch-webhook': () => import('../../functions/batch-webhook/index.js'),
  mcp: () => import('../../functions/mcp/index.js'),
  letter: () => import('../../functions/letter/index.js'),
  fhir: () => import('../../functions/fhir/index.js'),
  health: () => import('../../functions/health/index.js'),
  openapi: () => import('../../functions/openapi/index.js'),
  docs: () => import('../../functions/docs/index.js'),
  'not-found': () => import('../../functions/not-found/index.js'),
} as const;

export type FunctionName = keyof typeof FUNCTIONS;

export async function loadHandler(name: FunctionName): Promise<ApiHandler | StreamingHandler | AuthorizerHandler> {
  // Streaming functions call `awslambda.streamifyResponse` when imported; Lambda provides it, locally a stand-in does.
  installAwsLambdaStandIn();
  const module = (await FUNCTIONS[name]()) as unknown as { handler: ApiHandler | StreamingHandler | AuthorizerHandler };
  return module.handler;
}
