import { loggedCobCheck } from '../cob/route.js';
import type { Clock } from '../config/clock.js';
import { withDiscoverOnInactive } from '../discovery/on-inactive.js';
import type { DiscoveryStore } from '../discovery/store.js';
import { eligibilityRoute } from '../eligibility/route.js';
import { authorizeProvider } from '../enrollment/authorize.js';
import type { EnrollmentStore } from '../enrollment/types.js';
import { ERROR_TABLE, type ErrorCode } from '../errors/index.js';
import { answerOf } from '../http/api-handler.js';
import type { Runtime } from '../runtime/index.js';
import type { EligibilityRequest } from '../validation/index.js';
import { controlNumberOfKey } from '../x12/build270.js';
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

/** The COB part the route would add: the result, or `{message, code}` when the check failed. */
async function cobPart(runtime: Runtime, body: EligibilityRequest, clientId: string, key: string): Promise<CobPart> {
  const enrolled = await authorizeProvider(await runtime.enrollments(), clientId, body.providerId, body.payerId);
  if (!enrolled.ok) return { message: enrolled.error.message, code: enrolled.error.code };
  const query = {
    patientFirstName: body.patientFirstName,
    patientLastName: body.patientLastName,
    patientDOB: body.patientDOB,
    patientMemberId: body.patientMemberId,
    dateOfCoverage: body.dateOfCoverage,
    payerId: body.payerId,
  };
  const result = await loggedCobCheck(runtime, { query, enrollment: enrolled.value, controlNumber: String(controlNumberOfKey(key)) });
  return result.ok ? (result.value as unknown as CobPart) : { message: result.error.message, code: result.error.code };
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
    const cob = await cobPart(withKey(requestKey(idempotencyKey, 'cob'), attemptAt), request, clientId, requestKey(idempotencyKey, 'cob'));
    const { discovery, ...parsed } = JSON.parse(response.body) as Record<string, unknown>;
    const answer = { ...parsed, cob, ...(discovery === undefined ? {} : { discovery }) };
    return { status: response.statusCode, body: JSON.stringify(answer), ...(failedTransiently(cob) ? { transient: true } : {}) };
  };
}
