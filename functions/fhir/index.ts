import type { Context } from 'aws-lambda';
import { fhirHttpResponse, fhirRoute } from '../../lib/fhir/index.js';
import { type ApiEvent, apiHandler } from '../../lib/http/index.js';
import { runtimeFromEnv } from '../../lib/runtime/index.js';

const runtime = runtimeFromEnv();
const core = apiHandler('fhir', 'fhir', fhirRoute(runtime), { idempotencyTable: runtime.config.idempotencyTable });

/** POST /api/fhir/r4/CoverageEligibilityRequest/$submit: the shared pipeline, answered in FHIR's media type (docs/fhir.md). */
export const handler = async (event: ApiEvent, context: Context) => fhirHttpResponse(await core(event, context));
