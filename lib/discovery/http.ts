import type { Context } from 'aws-lambda';
import type { ApiEvent } from '../http/api-handler.js';
import { answerOf } from '../http/api-handler.js';
import { eventParameters } from '../http/parameters.js';
import { httpPipeline } from '../http/pipeline.js';
import type { HttpResponse } from '../http/response.js';
import { discoveryLocation, discoveryRoute, discoveryStatus } from './route.js';
import type { DiscoveryDeps } from './service.js';
import type { DiscoveryRequest } from '../validation/schemas.js';

/**
 * The discovery function's handler (docs/finding-coverage.md#insurance-discovery): POST (validated
 * body, Idempotency-Key: a replay answers the stored answer and sends nothing upstream, so it costs
 * no discovery) and GET by id, through the shared pipeline. A 202 carries `Location`, the poll URL.
 */
export function discoveryHandler(deps: DiscoveryDeps, options: { idempotencyTable?: string } = {}) {
  const route = discoveryRoute(deps);
  const start = httpPipeline({
    name: 'discovery',
    body: 'discovery',
    authorized: true,
    idempotency: options.idempotencyTable ? { table: options.idempotencyTable } : {},
    answer: async ({ body, clientId, requestId }) => {
      const outcome = await route({ body: body as DiscoveryRequest, clientId: clientId!, requestId });
      const answer = answerOf(outcome, requestId);
      if (outcome.ok && outcome.status === 202) answer.response.headers.location = discoveryLocation((outcome.body as { discoveryId: string }).discoveryId);
      return answer;
    },
  });
  const poll = httpPipeline({
    name: 'discovery-status',
    authorized: true,
    answer: async ({ event, clientId, requestId }) => {
      const discoveryId = eventParameters(event as ApiEvent).path.discoveryId ?? '';
      return answerOf(await discoveryStatus(deps, clientId!, discoveryId, requestId), requestId);
    },
  });
  return (event: ApiEvent, context?: Context): Promise<HttpResponse> =>
    ((event.httpMethod ?? '').toUpperCase() === 'POST' ? start(event, context) : poll(event, context)) as Promise<HttpResponse>;
}
