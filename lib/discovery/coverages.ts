/**
 * One coverage answer per plan a discovery found (docs/finding-coverage.md#coverages): the eligibility
 * answer is always the one 271 reader's. From the payer's raw 271 when the clearinghouse's result
 * carries it (no call), else from an eligibility check the service runs for that payer and member id
 * (one more call each, under the provider's enrollment for that payer). A coverage whose check fails
 * keeps the check's error body as its `eligibility`.
 */
import { authorizeProvider, type Enrollment } from '../enrollment/index.js';
import { eligibilityBody, interpret271Figures, loggedEligibilityCheck, type SummaryFigures } from '../eligibility/index.js';
import { fail, type Result, serviceError, type ServiceError } from '../errors/index.js';
import { type ErrorBody, errorResponse } from '../http/index.js';
import type { Runtime } from '../runtime/index.js';
import { type DiscoveryRequest, usDateToD8 } from '../validation/index.js';
import type { Coverage, FoundCoverage } from './types.js';

export interface CoverageContext {
  runtime: Runtime;
  clientId: string;
  requestId: string;
  request: DiscoveryRequest;
}

/** A check's error as the body its REST answer would carry. */
export const errorBodyOf = (error: ServiceError, requestId: string): ErrorBody => JSON.parse(errorResponse(error, requestId).body) as ErrorBody;

/** The payer id the clearinghouse gave, else the payer directory's best match for the payer's name. */
async function payerIdOf(runtime: Runtime, found: FoundCoverage): Promise<string | undefined> {
  if (found.payerId) return found.payerId;
  const page = await runtime.payers?.search({ q: found.payerName, pageSize: 1, transaction: 'eligibility' });
  return page?.ok ? page.value.payers[0]?.payerId : undefined;
}

async function figuresOf(context: CoverageContext, found: FoundCoverage, payerId: string, memberId: string, index: number): Promise<Result<SummaryFigures>> {
  const { runtime, request } = context;
  const dateOfCoverage = usDateToD8(request.dateOfService);
  if (found.x12) return interpret271Figures(found.x12, { memberId, dateOfCoverage }).result;

  const enrolled = await authorizeProvider(await runtime.enrollments(), context.clientId, request.providerId, payerId);
  if (!enrolled.ok) return enrolled;
  const enrollment: Enrollment = enrolled.value;
  const attempt = runtime.upstreamAttempt;
  const check = await loggedEligibilityCheck(
    runtime,
    {
      request: {
        patientFirstName: request.patientFirstName,
        patientLastName: request.patientLastName,
        patientDOB: request.patientDOB,
        patientMemberId: memberId,
        dateOfCoverage: request.dateOfService,
        payerId,
      },
      enrollment,
      ...(attempt ? { attempt: { key: `${attempt.key}-discovery-check-${index}`, startedAt: attempt.startedAt } } : {}),
    },
    'discovery coverage check upstream',
  );
  return check.result;
}

async function coverageOf(context: CoverageContext, found: FoundCoverage, index: number): Promise<Coverage> {
  const payerId = await payerIdOf(context.runtime, found);
  const memberId = found.memberId;
  const figures =
    payerId && memberId
      ? await figuresOf(context, found, payerId, memberId, index)
      : fail(
          serviceError('UPSTREAM_ERROR', {
            message: `The clearinghouse found a coverage without a ${payerId ? 'member id' : 'payer id'}: no check could be run for it`,
          }),
        );
  const coverage = {
    payerId: payerId ?? '',
    payerName: found.payerName,
    memberId: memberId ?? '',
    ...(found.groupNumber ? { groupNumber: found.groupNumber } : {}),
  };
  if (!figures.ok) return { ...coverage, coverageStatus: 'Unknown', eligibility: errorBodyOf(figures.error, context.requestId) };
  const eligibility = eligibilityBody(figures.value, new Date(context.runtime.clock.now()));
  return { ...coverage, coverageStatus: eligibility.coverageStatus, eligibility };
}

/** The coverages of a COMPLETE discovery, in the clearinghouse's order; their checks run side by side. */
export function coveragesOf(context: CoverageContext, found: readonly FoundCoverage[]): Promise<Coverage[]> {
  return Promise.all(found.map((item, index) => coverageOf(context, item, index)));
}
