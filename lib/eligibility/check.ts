/**
 * The real eligibility check (docs/eligibility.md): build the 270, send it through the clearinghouse
 * (runtime.clearinghouse), read the 271. A 271 whose AAA says "try again" (42, 80) gets the one retry the hygiene rule allows;
 * every other answer is final. Each reply is interpreted once: the interpretation that decides the
 * retry is the one answered from. Returns only log-safe metadata beside the result.
 */
import { type Clock, fixedClock, systemClock } from '../config/index.js';
import type { Enrollment } from '../enrollment/index.js';
import type { Result } from '../errors/index.js';
import type { Clearinghouse, UpstreamAttempt } from '../runtime/index.js';
import { build270, controlNumberOfKey, onlyUnavailable } from '../x12/index.js';
import { codesAsked } from './estimate.js';
import { interpret271Figures } from './interpret.js';
import { type EligibilityRequest, usDateToD8 } from '../validation/index.js';
import type { SummaryFigures } from './figures.js';
import type { EligibilityQuestion } from './types.js';

/** The patient part of a validated eligibility request; dates are MM-DD-YYYY. */
type EligibilityQuery = Pick<
  EligibilityRequest,
  'patientFirstName' | 'patientLastName' | 'patientDOB' | 'patientMemberId' | 'dateOfCoverage' | 'payerId' | 'serviceTypeCodes' | 'procedureCodes' | 'estimate'
>;

interface EligibilityCheckMeta {
  /** Which upstream endpoint answered (for the log line). */
  upstream: string;
  attempts: number;
  traceId?: string;
  /** AAA03 codes of the final 271, in order. */
  aaaCodes: string[];
  /** How many envelope/parse warnings the final reply produced (the texts stay out of logs). */
  warnings: number;
  /** Time on the clearinghouse (on the runtime's clock), retries and waits included. */
  upstreamMs: number;
  httpStatus?: number;
}

export interface EligibilityCheck {
  result: Result<SummaryFigures>;
  /** When the final 271 was received. */
  checkedAt?: Date;
  meta: EligibilityCheckMeta;
}

export interface CheckEligibilityArgs {
  request: EligibilityQuery;
  enrollment: Enrollment;
  clearinghouse: Clearinghouse;
  /**
   * A batch item's attempt (docs/batch.md#engine): its key goes with the call as `Idempotency-Key`, and
   * the 270 is pinned to it (control numbers from the key, date and time from the attempt's start), so
   * every send under the key, retries included, is the same bytes.
   */
  attempt?: UpstreamAttempt;
  /** Control number source for the 270 (default: crypto random, or the attempt's key); each send draws anew. */
  controlNumber?: () => number;
  /** The 270's envelope time and `checkedAt` (default: the system clock). */
  clock?: Clock;
}

export async function checkEligibility(args: CheckEligibilityArgs): Promise<EligibilityCheck> {
  const { request, enrollment } = args;
  const provider: { npi: string; organizationName?: string; firstName?: string; lastName?: string } = { npi: enrollment.npi };
  if (enrollment.organizationName) provider.organizationName = enrollment.organizationName;
  else {
    if (enrollment.firstName) provider.firstName = enrollment.firstName;
    if (enrollment.lastName) provider.lastName = enrollment.lastName;
  }
  // An estimate's codes are asked about too (docs/eligibility.md#estimate).
  const asked = codesAsked(request);
  const input = {
    payerId: request.payerId,
    provider,
    subscriber: {
      firstName: request.patientFirstName,
      lastName: request.patientLastName,
      memberId: request.patientMemberId,
      dateOfBirth: usDateToD8(request.patientDOB),
    },
    dateOfCoverage: usDateToD8(request.dateOfCoverage),
    ...(asked.serviceTypeCodes ? { serviceTypeCodes: asked.serviceTypeCodes } : {}),
    ...(asked.procedureCodes ? { procedureCodes: asked.procedureCodes } : {}),
  };
  const question: EligibilityQuestion = { memberId: request.patientMemberId, dateOfCoverage: input.dateOfCoverage };
  if (asked.serviceTypeCodes) question.serviceTypeCodes = asked.serviceTypeCodes;
  if (asked.procedureCodes) question.procedureCodes = asked.procedureCodes;
  // A fresh 270 per attempt: a resent interchange control number can be refused as a duplicate.
  const { attempt } = args;
  const pinned = attempt ? { controlNumber: () => controlNumberOfKey(attempt.key), clock: fixedClock(attempt.startedAt) } : {};
  const x12 = (): string => {
    const options: Parameters<typeof build270>[1] = { ...pinned };
    if (args.controlNumber) options.controlNumber = args.controlNumber;
    if (args.clock && !attempt) options.clock = args.clock;
    return build270(input, options).x12;
  };
  const read = (reply: string) => {
    const reading = interpret271Figures(reply, question);
    return { reading, retryable: onlyUnavailable(reading.aaaCodes) };
  };

  const call = await args.clearinghouse.eligibility({ x12, ...(attempt ? { idempotencyKey: attempt.key } : {}) }, read);
  const meta: EligibilityCheckMeta = { upstream: call.meta.upstream, attempts: call.meta.attempts, aaaCodes: [], warnings: 0, upstreamMs: call.meta.latencyMs };
  if (call.meta.traceId) meta.traceId = call.meta.traceId;
  if (call.meta.httpStatus !== undefined) meta.httpStatus = call.meta.httpStatus;
  if (!call.result.ok) return { result: call.result, meta };

  const checkedAt = new Date((args.clock ?? systemClock).now());
  const interpreted = call.result.value.reading;
  meta.aaaCodes = interpreted.aaaCodes;
  meta.warnings = interpreted.warnings.length;
  return { result: interpreted.result, meta, checkedAt };
}
