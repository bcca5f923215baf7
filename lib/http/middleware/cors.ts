import { corsHeaders, corsPolicy } from '../cors.js';
import type { PipelineMiddleware, PipelineRequest } from './state.js';

/**
 * CORS headers for an allowed Origin on every answer, errors included (docs/api.md#cors); nothing
 * when CORS is off. An answer that already carries `Vary` made its own CORS decision (the
 * catch-all's preflight, 404 and 405 answers) and is left as it is.
 */
function addCorsHeaders(request: PipelineRequest): void {
  const response = request.response;
  if (!response || 'vary' in response.headers) return;
  const cors = corsHeaders(corsPolicy(), request.event?.headers);
  if (Object.keys(cors).length > 0) response.headers = { ...response.headers, ...cors };
}

export function cors(): PipelineMiddleware {
  return { name: 'cors', after: addCorsHeaders, onError: addCorsHeaders };
}
