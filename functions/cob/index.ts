import { cobRoute } from '../../lib/cob/route.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { runtimeFromEnv } from '../../lib/runtime/index.js';

/** POST /api/eligibility/cob/v1 */
export const handler = apiHandler('cob', 'cob', cobRoute(runtimeFromEnv()));
