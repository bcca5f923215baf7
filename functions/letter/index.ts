import { apiHandler } from '../../lib/http/api-handler.js';
import { letterRoute } from '../../lib/letter/route.js';
import { runtimeFromEnv } from '../../lib/runtime/index.js';

/** POST /api/generate-letter */
export const handler = apiHandler('letter', 'letter', letterRoute(runtimeFromEnv()));
