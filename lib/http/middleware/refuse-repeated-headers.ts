import { ServiceFailure, serviceError } from '../../errors/index.js';
import { firstRepeatedHeader } from '../repeated-headers.js';
import type { PipelineMiddleware, PipelineRequest } from './state.js';

/**
 * A request that repeats `Authorization`, `Idempotency-Key` or `X-Request-Id` (in any letter case)
 * is refused with 400 INVALID_REQUEST naming the header (docs/api.md#request-ids): API Gateway keeps
 * only the last value in `headers`, so reading one of several would be a guess.
 */
export function refuseRepeatedHeaders(): PipelineMiddleware {
  return {
    name: 'refuse-repeated-headers',
    before: (request: PipelineRequest) => {
      const header = firstRepeatedHeader(request.event?.multiValueHeaders);
      if (header === undefined) return;
      throw new ServiceFailure(
        serviceError('INVALID_REQUEST', {
          message: `The ${header} header was sent more than once; send it once`,
          errors: [{ field: header, message: 'must be sent once' }],
        }),
      );
    },
  };
}
