/**
 * POST /api/medicare/mbi/v1 (docs/finding-coverage.md#medicare-number): a Medicare number lookup is an
 * eligibility check to the clearinghouse's lookup payer (which one depends on whether the SSN is sent;
 * the adapter knows: lib/upstream/clearinghouse.ts). With the SSN the 270 carries it (REF*SY); without,
 * the state the patient lives in, with a stand-in city as Stedi asks (N4). The payer's 271 is read by
 * the one 271 reader: the answer is `{mbi, eligibility}`, the number being the subscriber's member id
 * in that answer; a 271 that finds no one is the payer's 422 PAYER_REJECTED with its AAA.
 */
import { authorizeProvider } from '../enrollment/authorize.js';
import { interpret271Figures } from '../eligibility/interpret.js';
import { eligibilityBody } from '../eligibility/route.js';
import { serviceError } from '../errors/index.js';
import type { Route } from '../http/route-outcome.js';
import { log } from '../logging/index.js';
import type { Runtime } from '../runtime/index.js';
import { usDateToD8 } from '../validation/formats.js';
import type { MbiRequest } from '../validation/schemas.js';
import { build270 } from '../x12/build270.js';
import { onlyUnavailable } from '../x12/rejections.js';

/** N4's city when the lookup asks by state alone: Stedi's X12 endpoint needs a city, and documents this stand-in. */
export const STAND_IN_CITY = 'DUMMY';

export function mbiRoute(runtime: Runtime): Route<MbiRequest> {
  return async ({ body, clientId }) => {
    const enrolled = await authorizeProvider(await runtime.enrollments(), clientId, body.providerId, undefined);
    if (!enrolled.ok) return enrolled;
    const enrollment = enrolled.value;
    const withSsn = body.patientSSN !== undefined;
    const dateOfCoverage = usDateToD8(body.dateOfCoverage);
    const provider = enrollment.organizationName
      ? { npi: enrollment.npi, organizationName: enrollment.organizationName }
      : {
          npi: enrollment.npi,
          ...(enrollment.firstName ? { firstName: enrollment.firstName } : {}),
          ...(enrollment.lastName ? { lastName: enrollment.lastName } : {}),
        };
    const x12 = (payerId: string): string =>
      build270(
        {
          payerId,
          provider,
          subscriber: {
            firstName: body.patientFirstName,
            lastName: body.patientLastName,
            dateOfBirth: usDateToD8(body.patientDOB),
            ...(withSsn ? { ssn: body.patientSSN } : { address: { city: STAND_IN_CITY, state: body.patientState ?? '' } }),
          },
          dateOfCoverage,
        },
        { clock: runtime.clock },
      ).x12;
    const read = (reply: string) => {
      const reading = interpret271Figures(reply, { dateOfCoverage });
      return { reading, retryable: onlyUnavailable(reading.aaaCodes) };
    };
    const call = await runtime.clearinghouse.lookupMbi({ withSsn, x12 }, read);
    const reading = call.result.ok ? call.result.value.reading : undefined;
    log.info('mbi lookup upstream', {
      upstream: call.meta.upstream,
      sandbox: runtime.clearinghouse.sandbox,
      attempts: call.meta.attempts,
      upstreamMs: Math.round(call.meta.latencyMs),
      ...(reading ? { aaaCodes: reading.aaaCodes } : {}),
      ...(call.meta.traceId ? { traceId: call.meta.traceId } : {}),
      ...(call.result.ok ? (reading && !reading.result.ok ? { code: reading.result.error.code } : {}) : { code: call.result.error.code }),
    });
    if (!call.result.ok) return call.result;
    const figures = call.result.value.reading.result;
    if (!figures.ok) return figures;
    const eligibility = eligibilityBody(figures.value, new Date(runtime.clock.now()));
    const mbi = eligibility.subscriber.memberId;
    if (!mbi) return { ok: false, error: serviceError('PAYER_REJECTED', { message: 'Medicare returned no Medicare number for this patient' }) };
    return { ok: true, body: { mbi, eligibility } };
  };
}
