import type { Writable } from 'node:stream';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { type FunctionName, functionEntry } from '../../../lib/http/index.js';
import { installAwsLambdaStandIn } from './awslambda.js';

/**
 * The functions behind the API's routes, for the local server and `npm run invoke`: the rows of the
 * function table (lib/http/functions.ts), each loaded from its entry. Which method and path reach
 * which function is lib/http/routes.ts (the same table's routes).
 */

export type ApiHandler = (event: APIGatewayProxyEvent, context: unknown) => Promise<APIGatewayProxyResult>;
/** A handler wrapped with `awslambda.streamifyResponse` (the letter). */
export type StreamingHandler = (event: APIGatewayProxyEvent, responseStream: Writable, context: unknown) => Promise<void>;
export type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

export { FUNCTION_NAMES, type FunctionName } from '../../../lib/http/index.js';

export async function loadHandler(name: FunctionName): Promise<ApiHandler | StreamingHandler | AuthorizerHandler> {
  // Streaming functions call `awslambda.streamifyResponse` when imported; Lambda provides it, locally a stand-in does.
  installAwsLambdaStandIn();
  const module = (await import(`../../../${functionEntry(name)}`)) as { handler: ApiHandler | StreamingHandler | AuthorizerHandler };
  return module.handler;
}
