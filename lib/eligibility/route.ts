import { loggedCobCheck } from '../cob/route.js';
import type { CobResult } from '../cob/types.js';
import { authorizeProvider } from '../enrollment/authorize.js';
import type { Enrollment } from '../enrollment/types.js';
import { ERROR_TABLE, type ErrorCode, type ServiceError } from '../errors/index.js';
import type { Route, RouteOutcome } from '../http/api-handler.js';
import { log } from '../logging/index.js';
import { payerNotSupported } from '../payers/gate.js';
import type { Runtime } from '../runtime/index.js';
import type { EligibilityRequest } from '../validation/index.js';
import type { EstimateRequest } from '../validation/schemas.js';
import { checkEligibility } from './check.js';
import { estimateOf, type Estimate } from './estimate.js';
import { mockEligibility } from './mock.js';
import type { BenefitSummary } from './types.js';

type Answer = Omit<BenefitSummary, 'inNetwork' | 'outNetwork' | 'coverageStatus'>;

/**
 * POST /api/eligibility/v1 (docs/eligibility.md): mock mode answers from the fixed sets; a real check
 * needs the caller's active enrollment of the provider, then runs the 270/271 exchange and, with
 * `runCobCheck`, the COB search alongside it. A COB failure never fails the eligibility answer.
 */

const SUCCESS_MESSAGE = 'Eligibility check successful';

export type CobPart = CobResult | { message: string; code: string };

/** The 200 body, keys in the documented order. */
export interface EligibilityBody {
  inNetwork: BenefitSummary['inNetwork'];
  outNetwork: BenefitSummary['outNetwork'];
  message: string;
  coverageStatus: BenefitSummary['coverageStatus'];
  payerName?: string;
  checkedAt: string;
  plan: Answer['plan'];
  subscriber: Answer['subscriber'];
  dependent?: Answer['dependent'];
  benefits: Answer['benefits'];
  procedures?: Answer['procedures'];
  otherPayers: Answer['otherPayers'];
  notices: Answer['notices'];
  /** Only when the request sent `estimate` (docs/eligibility.md#estimate). */
  estimate?: Estimate;
  cob?: CobPart;
}

export function eligibilityRoute(runtime: Runtime): Route<EligibilityRequest> {
  return async ({ body, clientId }) => {
    if (body.mockRequest === true) {
      const mock = mockEligibility(body);
      const logFields = { mock: true, payerId: body.payerId };
      return mock.ok ? { ok: true, body: mock.body, log: logFields } : { ok: false, error: mock.error, log: logFields };
    }

    const enrolled = await authorizeProvider(await runtime.enrollments(), clientId, body.providerId, body.payerId);
    if (!enrolled.ok) return enrolled;
    const refused = await payerNotSupported(runtime.payers, body.payerId, 'eligibility');
    if (refused) return { ok: false, error: refused, log: { payerId: body.payerId } };
    const enrollment = enrolled.value;
    const { clearinghouse, clock, upstreamIdempotencyKey } = runtime;

    const [eligibility, cob] = await Promise.all([
      checkEligibility({ request: body, enrollment, clearinghouse, clock, ...(upstreamIdempotencyKey ? { idempotencyKey: upstreamIdempotencyKey } : {}) }),
      body.runCobCheck === true ? cobPart(runtime, body, enrollment) : Promise.resolve(undefined),
    ]);
    const { result, meta } = eligibility;
    log.info('eligibility upstream', {
      upstream: meta.upstream,
      sandbox: clearinghouse.sandbox,
      payerId: body.payerId,
      attempts: meta.attempts,
      upstreamMs: meta.upstreamMs,
      aaaCodes: meta.aaaCodes,
      warnings: meta.warnings,
      ...(meta.traceId ? { traceId: meta.traceId } : {}),
      ...(result.ok ? {} : { code: result.error.code }),
    });
    if (!result.ok) return result;

    const response = eligibilityBody(result.value, eligibility.checkedAt ?? new Date(clock.now()), cob, body.estimate);
    // A COB part that failed on an outage must not be frozen under an Idempotency-Key (docs/runtime.md#idempotency).
    return { ok: true, body: response, ...(failedTransiently(cob) ? { transient: true } : {}) } satisfies RouteOutcome;
  };
}

/** The 200 body of a real check (docs/eligibility.md#the-response); also the OpenAPI example's source. */
export function eligibilityBody(summary: BenefitSummary, checkedAt: Date, cob?: CobPart, estimate?: EstimateRequest): EligibilityBody {
  const response = {
    inNetwork: summary.inNetwork,
    outNetwork: summary.outNetwork,
    message: SUCCESS_MESSAGE,
    coverageStatus: summary.coverageStatus,
  } as EligibilityBody;
  if (summary.payerName) response.payerName = summary.payerName;
  response.checkedAt = checkedAt.toISOString();
  response.plan = summary.plan;
  response.subscriber = summary.subscriber;
  if (summary.dependent) response.dependent = summary.dependent;
  response.benefits = summary.benefits;
  if (summary.procedures) response.procedures = summary.procedures;
  response.otherPayers = summary.otherPayers;
  response.notices = summary.notices;
  if (estimate) response.estimate = estimateOf(estimate, summary);
  if (cob) response.cob = cob;
  return response;
}

/** The COB part of a `runCobCheck` request: its result, or `{message, code}` when it failed. */
async function cobPart(runtime: Runtime, body: EligibilityRequest, enrollment: Enrollment): Promise<CobPart> {
  const query = {
    patientFirstName: body.patientFirstName,
    patientLastName: body.patientLastName,
    patientDOB: body.patientDOB,
    patientMemberId: body.patientMemberId,
    dateOfCoverage: body.dateOfCoverage,
    payerId: body.payerId,
  };
  const result = await loggedCobCheck(runtime, { query, enrollment });
  return result.ok ? result.value : failedPart(result.error);
}

const failedPart = (error: ServiceError): CobPart => ({ message: error.message, code: error.code });

/** A COB part that failed with a 5xx (unavailable, timed out, unreadable): asking again may answer it. */
const failedTransiently = (cob: CobPart | undefined): boolean =>
  cob !== undefined && 'code' in cob && cob.code in ERROR_TABLE && ERROR_TABLE[cob.code as ErrorCode].status >= 500;
