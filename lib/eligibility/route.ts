import { loggedCobCheck } from '../cob/index.js';
import { authorizeProvider, type Enrollment } from '../enrollment/index.js';
import { type ExactError, isTransientFailure, type ServiceError } from '../errors/index.js';
import type { Render, Route, RouteInput } from '../http/index.js';
import { log, type SafeLogFields } from '../logging/index.js';
import { payerNotSupported } from '../payers/index.js';
import type { Runtime } from '../runtime/index.js';
import { type EligibilityRequest, type EstimateRequest, SUCCESS_MESSAGE } from '../validation/index.js';
import { type CheckEligibilityArgs, checkEligibility, type EligibilityCheck } from './check.js';
import { estimateOf } from './estimate.js';
import type { SummaryFigures } from './figures.js';
import { mockEligibility } from './mock.js';
import { type AnswerFigures, presentSummary } from './present.js';
import type * as Printout from './printout.js';
import type { CobPart, EligibilityBody, MockEligibilityBody } from './types.js';

/**
 * POST /api/eligibility/v1 (docs/eligibility.md): mock mode answers from the fixed sets; a real check
 * needs the caller's active enrollment of the provider, then runs the 270/271 exchange and, with
 * `runCobCheck`, the COB search alongside it. A COB failure never fails the eligibility answer.
 */

export type { CobPart, EligibilityBody };

/**
 * The printout's code (pdf-lib, fontkit: 0.7 MiB), loaded with the first PDF rather than with the
 * route: in a Lambda bundle it is a bundle of its own beside the handler (docs/deployment.md#side-bundles).
 */
const printout = (): Promise<typeof Printout> => (import.meta.sideBundles ? import(new URL('./printout.mjs', import.meta.url).href) : import('./printout.js'));

/**
 * The answer's other forms: `Accept: application/pdf` prints it on one page (./printout.ts,
 * docs/api.md#printable-summary).
 */
export const ELIGIBILITY_REPRESENTATIONS: Readonly<Record<string, Render>> = {
  'application/pdf': async (answer, request) => (await printout()).eligibilityPdf(answer, request as EligibilityRequest),
};

/**
 * An eligibility answer with the numbers it was formatted from (docs/eligibility.md#figures-inside-the-service):
 * FHIR reads `figures`, never the body's text.
 */
export interface FiguredAnswer {
  body: EligibilityBody | MockEligibilityBody;
  figures: AnswerFigures;
}

/** The eligibility route's outcome with the answer's figures: `answer` where a route has `body`. */
export type EligibilityOutcome = (
  | {
      ok: true;
      answer: FiguredAnswer;
      /** The answer embeds a transient COB failure (docs/runtime.md#idempotency): never stored under a key. */
      transient?: boolean;
    }
  | { ok: false; error: ServiceError | ExactError }
) & { log?: SafeLogFields };

/** POST /api/eligibility/v1 on the shared pipeline: {@link eligibilityAnswer} without the figures. */
export function eligibilityRoute(runtime: Runtime): Route<EligibilityRequest> {
  const answerFor = eligibilityAnswer(runtime);
  return async (input) => {
    const outcome = await answerFor(input);
    if (!outcome.ok) return outcome;
    const { answer, ...rest } = outcome;
    return { ...rest, body: answer.body };
  };
}

/** The eligibility check behind the route and FHIR's `$submit`: the answer and its figures, or the error. */
export function eligibilityAnswer(runtime: Runtime): (input: RouteInput<EligibilityRequest>) => Promise<EligibilityOutcome> {
  return async ({ body, clientId }) => {
    if (body.mockRequest === true) {
      const mock = mockEligibility(body);
      const logFields = { mock: true, payerId: body.payerId };
      return mock.ok ? { ok: true, answer: { body: mock.body, figures: mock.figures }, log: logFields } : { ok: false, error: mock.error, log: logFields };
    }

    const enrolled = await authorizeProvider(await runtime.enrollments(), clientId, body.providerId, body.payerId);
    if (!enrolled.ok) return enrolled;
    const refused = await payerNotSupported(runtime.payers, body.payerId, 'eligibility');
    if (refused) return { ok: false, error: refused, log: { payerId: body.payerId } };
    const enrollment = enrolled.value;
    const { clock, upstreamAttempt } = runtime;

    const [eligibility, cob] = await Promise.all([
      loggedEligibilityCheck(runtime, { request: body, enrollment, ...(upstreamAttempt ? { attempt: upstreamAttempt } : {}) }),
      body.runCobCheck === true ? cobPart(runtime, body, enrollment) : Promise.resolve(undefined),
    ]);
    const { result } = eligibility;
    if (!result.ok) return result;

    const response = eligibilityBody(result.value, eligibility.checkedAt ?? new Date(clock.now()), cob, body.estimate);
    // A COB part that failed on an outage must not be frozen under an Idempotency-Key (docs/runtime.md#idempotency).
    return { ok: true, answer: { body: response, figures: result.value }, ...(isTransientFailure(cob) ? { transient: true } : {}) };
  };
}

/**
 * The eligibility check against the runtime's clearinghouse and clock, with its one log line (no patient
 * data: docs/api.md#upstreams): the route's, and each coverage check a discovery runs (`message` says which).
 */
export async function loggedEligibilityCheck(
  runtime: Runtime,
  args: Omit<CheckEligibilityArgs, 'clearinghouse' | 'clock'>,
  message = 'eligibility upstream',
): Promise<EligibilityCheck> {
  const { clearinghouse, clock } = runtime;
  const check = await checkEligibility({ ...args, clearinghouse, clock });
  const { result, meta } = check;
  log.info(message, {
    upstream: meta.upstream,
    sandbox: clearinghouse.sandbox,
    payerId: args.request.payerId,
    attempts: meta.attempts,
    upstreamMs: meta.upstreamMs,
    aaaCodes: meta.aaaCodes,
    warnings: meta.warnings,
    ...(meta.traceId ? { traceId: meta.traceId } : {}),
    ...(result.ok ? {} : { code: result.error.code }),
  });
  return check;
}

/**
 * The 200 body of a real check (docs/eligibility.md#the-response); also the OpenAPI example's source.
 * Its figures are formatted here, once.
 */
export function eligibilityBody(figures: SummaryFigures, checkedAt: Date, cob?: CobPart, estimate?: EstimateRequest): EligibilityBody {
  const summary = presentSummary(figures);
  return {
    inNetwork: summary.inNetwork,
    outNetwork: summary.outNetwork,
    message: SUCCESS_MESSAGE,
    coverageStatus: summary.coverageStatus,
    ...(summary.payerName ? { payerName: summary.payerName } : {}),
    checkedAt: checkedAt.toISOString(),
    plan: summary.plan,
    subscriber: summary.subscriber,
    ...(summary.dependent ? { dependent: summary.dependent } : {}),
    benefits: summary.benefits,
    ...(summary.procedures ? { procedures: summary.procedures } : {}),
    otherPayers: summary.otherPayers,
    notices: summary.notices,
    ...(estimate ? { estimate: estimateOf(estimate, figures) } : {}),
    ...(cob ? { cob } : {}),
  };
}

/**
 * The COB part of a `runCobCheck` request: its result, or `{message, code}` when it failed. A batch
 * attempt passes the control number its key gives (docs/batch.md#engine).
 */
export async function cobPart(runtime: Runtime, body: EligibilityRequest, enrollment: Enrollment, controlNumber?: string): Promise<CobPart> {
  const query = {
    patientFirstName: body.patientFirstName,
    patientLastName: body.patientLastName,
    patientDOB: body.patientDOB,
    patientMemberId: body.patientMemberId,
    dateOfCoverage: body.dateOfCoverage,
    payerId: body.payerId,
  };
  const result = await loggedCobCheck(runtime, { query, enrollment, ...(controlNumber === undefined ? {} : { controlNumber }) });
  return result.ok ? result.value : failedPart(result.error);
}

const failedPart = (error: ServiceError): CobPart => ({ message: error.message, code: error.code });
