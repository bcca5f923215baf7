import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { RequestBodies, SchemaName } from '../validation/index.js';
import type { Expand } from './idempotency.js';
import { httpPipeline } from './pipeline.js';
import type { CorePipelineSpec } from './pipeline-core.js';
import type { HttpResponse } from './response.js';
import { answerOf, type Route } from './route-outcome.js';

// The outcome types and answerOf live in ./route-outcome.ts (a handler without a body needs them alone).
export { answerOf, type Route, type RouteOutcome } from './route-outcome.js';

/**
 * The POST routes' handler: the shared pipeline (./pipeline.ts) with every step (strict JSON body,
 * validation, Idempotency-Key, the authorizer's client id), and a route that answers with a value:
 * its outcome becomes the response here, so a 4xx answer can be stored and replayed like a 200.
 */

/**
 * The REST API Lambda proxy event (payload 1.0) API Gateway hands a route after the REQUEST
 * authorizer allowed it: the authorizer's context fields sit directly in `requestContext.authorizer`.
 */
export type ApiEvent = APIGatewayProxyEvent & {
  requestContext: APIGatewayProxyEvent['requestContext'] & { authorizer?: { clientId?: string } | null };
};

export interface ApiHandlerOptions {
  /** DynamoDB table for Idempotency-Key records; a key sent without one is a configuration error. */
  idempotencyTable?: string;
  /** Rebuilds a body from the `compact` form the route gave (./idempotency.ts). */
  expand?: Expand;
  /** Other media types a 200 answer can be asked for with `Accept` (./pipeline-core.ts). */
  representations?: CorePipelineSpec['representations'];
}

export function apiHandler<N extends SchemaName>(routeName: string, schema: N, route: Route<RequestBodies[N]>, options: ApiHandlerOptions = {}) {
  const handler = httpPipeline({
    name: routeName,
    body: schema,
    authorized: true,
    idempotency: { ...(options.idempotencyTable ? { table: options.idempotencyTable } : {}), ...(options.expand ? { expand: options.expand } : {}) },
    ...(options.representations ? { representations: options.representations } : {}),
    answer: async ({ body, clientId, requestId }) => answerOf(await route({ body: body as RequestBodies[N], clientId: clientId!, requestId }), requestId),
  });
  return handler as (event: ApiEvent, context: Context) => Promise<HttpResponse>;
}
