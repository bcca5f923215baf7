import { withDiscoverOnInactive } from '../../lib/discovery/on-inactive.js';
import { discoveryStoreFromEnv } from '../../lib/discovery/table-from-env.js';
import { eligibilityRoute } from '../../lib/eligibility/route.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { runtimeFromEnv } from '../../lib/runtime/index.js';

const runtime = runtimeFromEnv();
const discoveries = discoveryStoreFromEnv();

/** POST /api/eligibility/v1; `discoverOnInactive` starts a discovery when the check finds nothing (docs/finding-coverage.md). */
export const handler = apiHandler(
  'eligibility',
  'eligibility',
  withDiscoverOnInactive(discoveries ? { runtime, store: discoveries } : undefined, eligibilityRoute(runtime)),
  { idempotencyTable: runtime.config.idempotencyTable },
);
