import { randomUUID } from 'node:crypto';
import type { Clock } from '../config/clock.js';
import { eligibilityAnswer } from '../eligibility/route.js';
import { serviceError } from '../errors/index.js';
import type { Route } from '../http/api-handler.js';
import type { Runtime } from '../runtime/index.js';
import { validateBody, type EligibilityRequest, type FhirBundleRequest } from '../validation/index.js';
import { enrollmentForNpi, namingIdentifiers, npiNotEnrolled } from './identifiers.js';
import { readEligibilityBundle, locateProblems } from './request.js';
import { answerBundle, rejectionBundle, type Stamp } from './response.js';

/**
 * POST /api/fhir/r4/CoverageEligibilityRequest/$submit (docs/fhir.md): the Bundle is read into the body
 * of POST /api/eligibility/v1, held to the same schema, and answered by the same eligibility route
 * (mock sets, enrollment, 270/271); its answer becomes a Bundle with a CoverageEligibilityResponse. A
 * payer's rejection is such an answer (outcome `error`); every other error stays ours, and the FHIR
 * handler (functions/fhir) writes it as an OperationOutcome with the REST route's status.
 */

export interface FhirRouteOptions {
  /** When the answer is made (a mock or a rejection has no time of its own); default the runtime's clock. */
  clock?: Clock;
  /** The id of the answer's Bundle entry (`urn:uuid:<id>`). */
  newId?: () => string;
}

export function fhirRoute(runtime: Runtime, options: FhirRouteOptions = {}): Route<FhirBundleRequest> {
  const eligibility = eligibilityAnswer(runtime);
  const clock = options.clock ?? runtime.clock;
  const newId = options.newId ?? randomUUID;
  return async (input) => {
    const mapped = readEligibilityBundle(input.body);
    if (!mapped.ok) return mapped;
    const { body, sources, context, identifiers, providerNpi } = mapped.value;
    if (providerNpi) {
      // docs/fhir.md#identifiers: a provider named by NPI is the client's enrollment with that NPI.
      const enrollment = await enrollmentForNpi(await runtime.enrollments(), input.clientId, String(providerNpi.value), body.payerId);
      if (!enrollment) return { ok: false, error: npiNotEnrolled(providerNpi) };
      body.providerId = enrollment.providerId;
    }
    const valid = validateBody('eligibility', body, { clock: runtime.clock });
    if (!valid.ok) {
      const errors = locateProblems(valid.error.errors ?? [], sources);
      return { ok: false, error: serviceError('INVALID_REQUEST', { message: valid.error.message, errors }) };
    }

    const outcome = await eligibility({ ...input, body: valid.value satisfies EligibilityRequest });
    const stamp = (): Stamp => ({ created: new Date(clock.now()).toISOString(), id: newId() });
    if (outcome.ok) return { ok: true, body: answerBundle(outcome.answer, context, stamp()), ...(outcome.log ? { log: outcome.log } : {}) };
    const error = outcome.error;
    if (!('code' in error)) return outcome;
    if (error.code === 'PAYER_REJECTED') {
      return { ok: true, body: rejectionBundle(error.message, error.rejections ?? [], context, stamp()), log: { ...outcome.log, code: error.code } };
    }
    return { ...outcome, error: namingIdentifiers(error, identifiers) };
  };
}
