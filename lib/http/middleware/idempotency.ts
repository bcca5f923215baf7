import { ServiceFailure, serviceError } from '../../errors/index.js';
import { readIdempotencyKey, runIdempotent, type Expand } from '../idempotency.js';
import { stateOf, type PipelineRequest, type PipelineMiddleware } from './state.js';

export interface IdempotencyOptions {
  /** DynamoDB table for Idempotency-Key records; a key sent without one is a configuration error. */
  table?: string;
  /** Rebuilds an answer's body from the compact form a route stored for it (the letter). */
  expand?: Expand;
}

/**
 * The Idempotency-Key step (docs/runtime.md#idempotency): a malformed key is a 400 naming the
 * header; a well-formed one makes the route's answer run at most once per client, route and key
 * (replay, 409 and 422 as lib/http/idempotency.ts says). Runs after validation, so a refused body
 * never takes the key.
 */
export function idempotency(route: string, options: IdempotencyOptions): PipelineMiddleware {
  return {
    name: 'idempotency',
    before: (request: PipelineRequest) => {
      const state = stateOf(request);
      const key = readIdempotencyKey(request.event.headers ?? {});
      if (!key.ok) throw new ServiceFailure(key.error);
      if (key.value === undefined) return;
      const table = options.table;
      if (!table) {
        throw new ServiceFailure(serviceError('CONFIGURATION_ERROR', { message: 'Idempotency-Key was sent but IDEMPOTENCY_TABLE is not configured' }));
      }
      const clientId = request.event.requestContext?.authorizer?.clientId ?? '';
      state.run = async (answer, context) => {
        const run = await runIdempotent(
          {
            table,
            route,
            clientId,
            key: key.value!,
            body: state.body,
            requestId: state.requestId,
            context,
            ...(options.expand ? { expand: options.expand } : {}),
          },
          answer,
        );
        return { ...run.answer, log: { ...run.answer.log, idempotency: run.idempotency } };
      };
    },
  };
}
