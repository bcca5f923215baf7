/**
 * `discoverOnInactive: true` on an eligibility body (docs/finding-coverage.md#discovery-when-the-check-finds-nothing):
 * when the check answers Inactive, or the payer rejects with AAA 72, 73, 75 or 76 (the member was not
 * found), a discovery starts for the same patient (counted against the daily cap like any other) and
 * the answer gains `discovery: {discoveryId, status, coverages?}` (or `{message, code}` when the
 * discovery could not start): the 200 for Inactive, the 422 PAYER_REJECTED body for a rejection.
 * Wraps the eligibility route itself, so the real-time route, batch items and the MCP tool all behave alike.
 */
import { authorizeProvider } from '../enrollment/index.js';
import { isTransientFailure, type ServiceError } from '../errors/index.js';
import type { Route, RouteOutcome } from '../http/index.js';
import type { EligibilityRequest } from '../validation/index.js';
import { errorBodyOf } from './coverages.js';
import { startDiscovery, type DiscoveryDeps } from './service.js';
import type { DiscoveryAnswer } from './types.js';

/** AAA03 codes that mean the payer did not find the member. */
export const MEMBER_NOT_FOUND_AAA: ReadonlySet<string> = new Set(['72', '73', '75', '76']);

type DiscoveryPart = DiscoveryAnswer | { message: string; code: string };

const memberNotFound = (error: ServiceError): boolean =>
  error.code === 'PAYER_REJECTED' && (error.rejections ?? []).some((r) => MEMBER_NOT_FOUND_AAA.has(r.code));

async function discoveryPart(deps: DiscoveryDeps, body: EligibilityRequest, clientId: string, requestId: string): Promise<DiscoveryPart> {
  const request = {
    patientFirstName: body.patientFirstName,
    patientLastName: body.patientLastName,
    patientDOB: body.patientDOB,
    dateOfService: body.dateOfCoverage,
    providerId: body.providerId,
  };
  const enrolled = await authorizeProvider(await deps.runtime.enrollments(), clientId, body.providerId, undefined);
  const started = enrolled.ok ? await startDiscovery(deps, clientId, request, enrolled.value, requestId) : enrolled;
  return started.ok ? started.value : { message: started.error.message, code: started.error.code };
}

/** The eligibility route, with a discovery started when the check found nothing and the body asked for one. */
export function withDiscoverOnInactive(deps: DiscoveryDeps | undefined, route: Route<EligibilityRequest>): Route<EligibilityRequest> {
  return async (input) => {
    const outcome = await route(input);
    const { body, clientId, requestId } = input;
    if (!deps || body.discoverOnInactive !== true || body.mockRequest === true) return outcome;
    if (outcome.ok) {
      const answer = outcome.body as { coverageStatus?: string };
      if (answer.coverageStatus !== 'Inactive') return outcome;
      const discovery = await discoveryPart(deps, body, clientId, requestId);
      return {
        ...outcome,
        body: { ...answer, discovery },
        ...(outcome.transient || isTransientFailure(discovery) ? { transient: true } : {}),
      } satisfies RouteOutcome;
    }
    if (!('code' in outcome.error) || !memberNotFound(outcome.error)) return outcome;
    const discovery = await discoveryPart(deps, body, clientId, requestId);
    return {
      ok: true,
      status: outcome.error.status,
      body: { ...errorBodyOf(outcome.error, requestId), discovery },
      ...(isTransientFailure(discovery) ? { transient: true } : {}),
      log: { ...outcome.log, code: outcome.error.code },
    };
  };
}
