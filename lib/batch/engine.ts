import type { Clock } from '../config/index.js';
import { type DiscoveryStore, withDiscoverOnInactive } from '../discovery/index.js';
import { cobPart, eligibilityRoute } from '../eligibility/index.js';
import { authorizeProvider, type EnrollmentStore } from '../enrollment/index.js';
import { ERROR_TABLE, type ErrorCode } from '../errors/index.js';
import { answerOf } from '../http/index.js';
import type { Runtime } from '../runtime/index.js';
import type { EligibilityRequest } from '../validation/index.js';
import { controlNumberOfKey } from '../x12/index.js';
import { cachedEnrollments } from './enrollment-cache.js';
import type { Check } from './worker.js';

/**
 * The real-time route's engine for batch items (docs/batch.md#engine): the very route function
 * POST /api/eligibility/v1 runs and the same outcome-to-response step, so an item's status and body
 * are byte for byte what the real-time route answers for the same body. The enrollment each item is
 * checked against is read at most once a minute per provider (ENROLLMENT_CACHE_MS): a batch repeats
 * the same few providers thousands of times.
 *
 * An item that asks for `runCobCheck` makes its two clearinghouse calls one after the other, never at
 * once (docs/batch.md#engine): the 270 through the route without the COB flag, then the
 * COB search, whose part is added last to the answer exactly where the route puts it. Each call
 * carries its own Idempotency-Key, `<attempt key>-270` and `<attempt key>-cob`; the 270's control
 * numbers and the COB request's are derived from its key and the 270's date and time are the attempt's
 * start, so a repeat under a key sends the same body.
 */
const ENROLLMENT_CACHE_MS = 60_000;

/** The statuses of a COB part worth asking again (bad gateway, unavailable, timed out). */
const TRANSIENT_STATUSES = new Set([502, 503, 504]);

/** The upstream key of one request kind of an attempt (docs/batch.md#engine). */
export type RequestKind = '270' | 'cob' | 'discovery';
export const requestKey = (attemptKey: string, kind: RequestKind): string => `${attemptKey}-${kind}`;

type CobPart = Record<string, unknown>;

/** The COB part the route would add, its control number from its key: the result, or `{message, code}` when the check failed. */
async function cobPartOf(runtime: Runtime, body: EligibilityRequest, clientId: string, key: string): Promise<CobPart> {
  const enrolled = await authorizeProvider(await runtime.enrollments(), clientId, body.providerId, body.payerId);
  if (!enrolled.ok) return { message: enrolled.error.message, code: enrolled.error.code };
  return (await cobPart(runtime, body, enrolled.value, String(controlNumberOfKey(key)))) as unknown as CobPart;
}

const failedTransiently = (cob: CobPart): boolean =>
  typeof cob.code === 'string' && cob.code in ERROR_TABLE && TRANSIENT_STATUSES.has(ERROR_TABLE[cob.code as ErrorCode].status);

/** `discoveries`: where an item's `discoverOnInactive` keeps the discovery it starts (docs/finding-coverage.md); without it none starts. */
export function eligibilityCheck(runtime: Runtime, clock: Clock = runtime.clock, discoveries?: DiscoveryStore): Check {
  let enrollments: Promise<EnrollmentStore> | undefined;
  const cached = () => (enrollments ??= runtime.enrollments().then((store) => cachedEnrollments(store, ENROLLMENT_CACHE_MS, clock)));
  const withKey = (key: string, startedAt: number): Runtime => ({ ...runtime, enrollments: cached, upstreamAttempt: { key, startedAt } });
  return async ({ body, clientId, requestId, idempotencyKey, attemptAt }) => {
    const request = body as unknown as EligibilityRequest;
    const split = request.runCobCheck === true && request.mockRequest !== true;
    const { runCobCheck: _cob, ...withoutCob } = request;
    const key270 = requestKey(idempotencyKey, '270');
    // The 270 is pinned to its key and the attempt's start: a repeat under the key is the same bytes. A
    // discovery the item starts sends `<attempt key>-discovery` (lib/discovery/service.ts).
    const attemptRuntime = withKey(idempotencyKey, attemptAt);
    const route = withDiscoverOnInactive(
      discoveries ? { runtime: attemptRuntime, store: discoveries } : undefined,
      eligibilityRoute(withKey(key270, attemptAt)),
    );
    const outcome = await route({ body: split ? (withoutCob as EligibilityRequest) : request, clientId, requestId });
    const { response } = answerOf(outcome, requestId);
    if (!split || response.statusCode !== 200) return { status: response.statusCode, body: response.body };
    // The route adds `cob` last, before a discovery: placed so, the text is what the route would write.
    const cob = await cobPartOf(withKey(requestKey(idempotencyKey, 'cob'), attemptAt), request, clientId, requestKey(idempotencyKey, 'cob'));
    const { discovery, ...parsed } = JSON.parse(response.body) as Record<string, unknown>;
    const answer = { ...parsed, cob, ...(discovery === undefined ? {} : { discovery }) };
    return { status: response.statusCode, body: JSON.stringify(answer), ...(failedTransiently(cob) ? { transient: true } : {}) };
  };
}
