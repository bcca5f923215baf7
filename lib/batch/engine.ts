import { withDiscoverOnInactive } from '../discovery/on-inactive.js';
import type { DiscoveryStore } from '../discovery/store.js';
import { eligibilityRoute } from '../eligibility/route.js';
import type { EnrollmentStore } from '../enrollment/types.js';
import { answerOf } from '../http/api-handler.js';
import type { Runtime } from '../runtime/index.js';
import type { EligibilityRequest } from '../validation/index.js';
import { cachedEnrollments } from './enrollment-cache.js';
import type { Check } from './worker.js';

/**
 * The real-time route's engine for batch items (docs/batch.md#engine): the very route function
 * POST /api/eligibility/v1 runs and the same outcome-to-response step, so an item's status and body
 * are byte for byte what the real-time route answers for the same body. The attempt's
 * Idempotency-Key rides on the runtime the route reads its clearinghouse connection from. The
 * enrollment each item is checked against is read at most once a minute per provider
 * (ENROLLMENT_CACHE_MS): a batch repeats the same few providers thousands of times.
 */
const ENROLLMENT_CACHE_MS = 60_000;

/** `discoveries`: where an item's `discoverOnInactive` keeps the discovery it starts (docs/finding-coverage.md); without it none starts. */
export function eligibilityCheck(runtime: Runtime, now: () => number = Date.now, discoveries?: DiscoveryStore): Check {
  let enrollments: Promise<EnrollmentStore> | undefined;
  const cached = () => (enrollments ??= runtime.enrollments().then((store) => cachedEnrollments(store, ENROLLMENT_CACHE_MS, now)));
  return async ({ body, clientId, requestId, idempotencyKey }) => {
    const itemRuntime = { ...runtime, enrollments: cached, upstreamIdempotencyKey: idempotencyKey };
    const route = withDiscoverOnInactive(discoveries ? { runtime: itemRuntime, store: discoveries } : undefined, eligibilityRoute(itemRuntime));
    const { response } = answerOf(await route({ body: body as unknown as EligibilityRequest, clientId, requestId }), requestId);
    return { status: response.statusCode, body: response.body };
  };
}
