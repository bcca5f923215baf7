import { ServiceFailure } from '../../errors/index.js';
import { repeatedHeader } from '../repeated-headers.js';
import type { PipelineMiddleware, PipelineRequest } from './state.js';

/**
 * A request that repeats `Authorization`, `Idempotency-Key` or `X-Request-Id` (in any letter case)
 * is refused with 400 INVALID_REQUEST naming the header (docs/security.md#headers): API Gateway keeps
 * only the last value in `headers`, so reading one of several would be a guess. The local server
 * refuses the same requests with the same body (../repeated-headers.ts).
 */
export function refuseRepeatedHeaders(): PipelineMiddleware {
  return {
    name: 'refuse-repeated-headers',
    before: (request: PipelineRequest) => {
      const repeated = repeatedHeader(request.event?.multiValueHeaders);
      if (repeated) throw new ServiceFailure(repeated.error);
    },
  };
}
