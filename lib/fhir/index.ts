/**
 * FHIR R4 `CoverageEligibilityRequest/$submit` over the eligibility route (docs/fhir.md): a Bundle in, the
 * same check, a Bundle with a `CoverageEligibilityResponse` (or an `OperationOutcome`) out.
 *
 * @example
 * ```ts
 * import { fhirRoute } from '../fhir/index.js';
 * const route = fhirRoute(runtime); // POST /api/fhir/r4/CoverageEligibilityRequest/$submit
 * ```
 */

export { MOCK_TAG, SYSTEMS } from './codes.js';
export { FHIR_CONTENT_TYPE, fhirHttpResponse, operationOutcomeOf } from './outcome.js';
export { readEligibilityBundle } from './request.js';
export { answerBundle, rejectionBundle, type EligibilityAnswer } from './response.js';
export { fhirRoute } from './route.js';
