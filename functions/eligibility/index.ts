import { discoveryStoreFromEnv, withDiscoverOnInactive } from '../../lib/discovery/index.js';
import { ELIGIBILITY_REPRESENTATIONS, eligibilityRoute } from '../../lib/eligibility/index.js';
import { apiHandler } from '../../lib/http/index.js';
import { runtimeFromEnv } from '../../lib/runtime/index.js';

const runtime = runtimeFromEnv();
const discoveries = discoveryStoreFromEnv();

/**
 * POST /api/eligibility/v1; `discoverOnInactive` starts a discovery when the check finds nothing (docs/finding-coverage.md);
 * `Accept: application/pdf` prints the answer (docs/api.md#printable-summary).
 */
export const handler = apiHandler(
  'eligibility',
  'eligibility',
  withDiscoverOnInactive(discoveries ? { runtime, store: discoveries } : undefined, eligibilityRoute(runtime)),
  { idempotencyTable: runtime.config.idempotencyTable, representations: ELIGIBILITY_REPRESENTATIONS },
);
