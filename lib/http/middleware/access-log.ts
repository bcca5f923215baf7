import { log, type SafeLogFields } from '../../logging/index.js';
import { stateOf, type PipelineRequest, type PipelineMiddleware } from './state.js';

/**
 * One access-log line per request, last of all: the route, status and latency plus the fields the
 * steps and the route added (mock, payer id, attempts, idempotency, error code), never the body.
 */
function writeAccessLine(route: string) {
  return (request: PipelineRequest): void => {
    const state = stateOf(request);
    const status = request.response?.statusCode ?? 500;
    const fields: SafeLogFields = { ...state.log, route, status, latencyMs: Math.round((performance.now() - state.startedAt) * 100) / 100 };
    log.info('request', fields);
  };
}

export function accessLog(route: string): PipelineMiddleware {
  const write = writeAccessLine(route);
  return { name: 'access-log', after: write, onError: write };
}
