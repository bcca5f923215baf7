import type { Context } from 'aws-lambda';
import { answerOf, type ApiEvent, corePipeline, eventParameters, type HttpResponse } from '../http/index.js';
import type { PayerDirectory } from './directory.js';
import { payerLookupRoute, payerSearchRoute } from './route.js';

/**
 * The payer function's handler: GET /api/payers and GET /api/payers/{payerId}
 * (docs/api.md#payer-directory) through the shared pipeline (lib/http/pipeline-core.ts, docs/runtime.md#the-http-pipeline)
 * behind the authorizer, with no body: the search reads the query string, the lookup its path parameter.
 */
export function payersHandler(directory: PayerDirectory) {
  const search = payerSearchRoute(directory);
  const lookup = payerLookupRoute(directory);
  const handler = corePipeline({
    name: 'payers',
    authorized: true,
    answer: async ({ event, requestId }) => {
      const { query, path } = eventParameters(event as ApiEvent);
      return answerOf(await (path.payerId === undefined ? search(query) : lookup(path.payerId)), requestId);
    },
  });
  return handler as (event: ApiEvent, context?: Context) => Promise<HttpResponse>;
}
