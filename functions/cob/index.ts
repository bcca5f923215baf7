import { cobRoute } from '../../lib/cob/index.js';
import { apiHandler } from '../../lib/http/index.js';
import { runtimeFromEnv } from '../../lib/runtime/index.js';

const runtime = runtimeFromEnv();

/** POST /api/eligibility/cob/v1 */
export const handler = apiHandler('cob', 'cob', cobRoute(runtime), { idempotencyTable: runtime.config.idempotencyTable });
