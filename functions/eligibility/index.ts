import { ELIGIBILITY_REPRESENTATIONS, eligibilityRoute } from '../../lib/eligibility/route.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { runtimeFromEnv } from '../../lib/runtime/index.js';

const runtime = runtimeFromEnv();

/** POST /api/eligibility/v1 */
export const handler = apiHandler('eligibility', 'eligibility', eligibilityRoute(runtime), {
  idempotencyTable: runtime.config.idempotencyTable,
  representations: ELIGIBILITY_REPRESENTATIONS,
});
