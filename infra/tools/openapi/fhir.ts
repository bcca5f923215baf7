import type { Bundle, BundleEntry, CoverageEligibilityRequest } from '@medplum/fhirtypes';
import { mockEligibility } from '../../../lib/eligibility/mock.js';
import { ERROR_TABLE, EXACT, serviceError, type ErrorCode } from '../../../lib/errors/index.js';
import { MOCK_TAG, SYSTEMS } from '../../../lib/fhir/codes.js';
import { FHIR_CONTENT_TYPE, operationOutcomeOf } from '../../../lib/fhir/outcome.js';
import { readEligibilityBundle } from '../../../lib/fhir/request.js';
import { answerBundle, rejectionBundle, type EligibilityAnswer } from '../../../lib/fhir/response.js';
import { MOCK_PATIENTS } from '../../../lib/mock/patients.js';
import { usDateToIso } from '../../../lib/validation/formats.js';
import type { EligibilityRequest } from '../../../lib/validation/index.js';
import type { SandboxExamples } from './sandbox-examples.js';
import { SANDBOX_ELIGIBILITY_REQUESTS } from './sandbox-examples.js';

/**
 * The FHIR route in the OpenAPI document (docs/fhir.md): request Bundles built from the REST examples'
 * bodies, answers computed by lib/fhir from the same mock and sandbox answers the REST examples show, and
 * errors as the OperationOutcome the route writes. Also what docs/fhir.md and the tests build Bundles with.
 */

type Json = Record<string, unknown>;

/** The fixed time and entry id of the example answers (reproducible document). */
const STAMP = { created: '2025-03-01T15:04:05.000Z', id: '5b4ff8a0-3f1e-4c55-9d0b-2f3c9a1e7d10' };

const CPT = 'http://www.ama-assn.org/go/cpt';
const CDT = 'http://www.ada.org/cdt';

/** An eligibility body as the `$submit` Bundle an EHR sends: request first, then Patient, Coverage, insurer, provider. */
export function requestBundle(body: EligibilityRequest): Bundle {
  const request: CoverageEligibilityRequest = {
    resourceType: 'CoverageEligibilityRequest',
    id: 'req-1',
    status: 'active',
    purpose: ['benefits', 'validation'],
    patient: { reference: 'Patient/pat-1' },
    created: '2025-03-01',
    servicedDate: usDateToIso(body.dateOfCoverage),
    insurer: { reference: 'Organization/payer-1' },
    provider: { reference: 'Organization/provider-1' },
    insurance: [{ focal: true, coverage: { reference: 'Coverage/cov-1' } }],
  };
  if (body.mockRequest) request.meta = { tag: [{ ...MOCK_TAG }] };
  const items = [
    ...(body.serviceTypeCodes ?? []).map((code) => ({ category: { coding: [{ system: SYSTEMS.x12ServiceType, code }] } })),
    ...(body.procedureCodes ?? []).map((code) => ({ productOrService: { coding: [{ system: /^D\d{4}$/.test(code) ? CDT : CPT, code }] } })),
  ];
  if (items.length > 0) request.item = items;
  const entries: BundleEntry[] = [
    { fullUrl: 'urn:uuid:00000000-0000-4000-8000-000000000001', resource: request },
    {
      fullUrl: 'urn:uuid:00000000-0000-4000-8000-000000000002',
      resource: {
        resourceType: 'Patient',
        id: 'pat-1',
        name: [{ use: 'official', family: body.patientLastName, given: [body.patientFirstName] }],
        birthDate: usDateToIso(body.patientDOB),
      },
    },
    {
      fullUrl: 'urn:uuid:00000000-0000-4000-8000-000000000003',
      resource: {
        resourceType: 'Coverage',
        id: 'cov-1',
        status: 'active',
        subscriberId: body.patientMemberId,
        beneficiary: { reference: 'Patient/pat-1' },
        payor: [{ reference: 'Organization/payer-1' }],
      },
    },
    {
      fullUrl: 'urn:uuid:00000000-0000-4000-8000-000000000004',
      resource: { resourceType: 'Organization', id: 'payer-1', identifier: [{ value: body.payerId }] },
    },
    {
      fullUrl: 'urn:uuid:00000000-0000-4000-8000-000000000005',
      resource: { resourceType: 'Organization', id: 'provider-1', identifier: [{ value: body.providerId }] },
    },
  ];
  return { resourceType: 'Bundle', type: 'collection', entry: entries };
}

function contextOf(bundle: Bundle) {
  const mapped = readEligibilityBundle(bundle as unknown as Json);
  if (!mapped.ok) throw new Error(`example Bundle is not readable: ${JSON.stringify(mapped.error.errors)}`);
  return mapped.value.context;
}

/** Requests and answers: the sandbox's Maria Garcia (services and procedures), mock set 1, and a payer rejection. */
export function fhirExamples(live: SandboxExamples): { requests: Json; answers: Json } {
  const garciaBody = SANDBOX_ELIGIBILITY_REQUESTS.sandboxGarciaProcedures!.value as unknown as EligibilityRequest;
  const garcia = requestBundle(garciaBody);
  const mockBody = { ...MOCK_PATIENTS[0]!, mockRequest: true } as EligibilityRequest;
  const mock = requestBundle(mockBody);
  const mockAnswer = mockEligibility(mockBody);
  const requests: Json = {
    sandboxGarcia: { summary: 'Sandbox: Maria Garcia (active PPO), office visits and two procedures', value: garcia },
    mock1: { summary: 'Mock set 1 (meta.tag mock)', value: mock },
  };
  const answers: Json = {};
  const liveGarcia = live.eligibility.sandboxGarciaProcedures?.value as EligibilityAnswer | undefined;
  const liveGarciaFigures = live.eligibilityFigures.sandboxGarciaProcedures;
  if (liveGarcia && liveGarciaFigures) {
    answers.sandboxGarcia = {
      summary: 'Sandbox: Maria Garcia',
      value: answerBundle({ body: liveGarcia, figures: liveGarciaFigures }, contextOf(garcia), STAMP),
    };
  }
  if (mockAnswer.ok) answers.mock1 = { summary: 'Mock set 1', value: answerBundle(mockAnswer, contextOf(mock), STAMP) };
  const rejections = [{ code: '75', description: 'Subscriber/Insured Not Found', followUpAction: 'C: Please Correct and Resubmit', loop: '2100C' }];
  answers.payerRejected = {
    summary: 'The payer rejected the request (AAA 75)',
    value: rejectionBundle(ERROR_TABLE.PAYER_REJECTED.message, rejections, contextOf(garcia), STAMP),
  };
  return { requests, answers };
}

/** The errors the route answers as an OperationOutcome, by status. */
const FHIR_ERRORS: ErrorCode[] = [
  'INVALID_JSON',
  'INVALID_REQUEST',
  'PROVIDER_NOT_ENROLLED',
  'UNSUPPORTED_MEDIA_TYPE',
  'IDEMPOTENCY_KEY_REUSED',
  'REQUEST_IN_PROGRESS',
  'CONFIGURATION_ERROR',
  'INTERNAL_ERROR',
  'UPSTREAM_ERROR',
  'PAYER_UNAVAILABLE',
  'UPSTREAM_TIMEOUT',
];

const OPERATION_OUTCOME_SCHEMA = {
  type: 'object',
  description:
    'A FHIR R4 OperationOutcome: one issue per problem; `details.coding` carries our error code (system urn:eligibility-service:error-code), `expression` the element at fault.',
  required: ['resourceType', 'issue'],
  additionalProperties: true,
  properties: { resourceType: { const: 'OperationOutcome' }, issue: { type: 'array', items: { type: 'object', additionalProperties: true } } },
};

const BUNDLE_SCHEMA = {
  type: 'object',
  description: 'A FHIR R4 Bundle (type collection) whose one entry is a CoverageEligibilityResponse.',
  required: ['resourceType', 'type', 'entry'],
  additionalProperties: true,
  properties: {
    resourceType: { const: 'Bundle' },
    type: { const: 'collection' },
    entry: { type: 'array', items: { type: 'object', additionalProperties: true } },
  },
};

function errorExample(code: ErrorCode): Json {
  if (code !== 'INVALID_REQUEST') return operationOutcomeOf({ message: ERROR_TABLE[code].message, code }) as unknown as Json;
  const bundle = requestBundle({ ...(SANDBOX_ELIGIBILITY_REQUESTS.sandboxGarciaProcedures!.value as unknown as EligibilityRequest) });
  const patient = bundle.entry![1]!.resource as { birthDate?: string };
  patient.birthDate = '1985-02-30';
  const mapped = readEligibilityBundle(bundle as unknown as Json);
  const error = mapped.ok ? serviceError('INVALID_REQUEST') : mapped.error;
  return operationOutcomeOf(error) as unknown as Json;
}

/** The operation object of the route (parameters, body, answers), for document.ts. */
export function fhirOperation(live: SandboxExamples, header: (name: string) => Json, requestSchema: Json): Json {
  const examples = fhirExamples(live);
  const headers = { 'x-request-id': header('XRequestId'), 'Cache-Control': header('CacheControl') };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of FHIR_ERRORS) byStatus.set(ERROR_TABLE[code].status, [...(byStatus.get(ERROR_TABLE[code].status) ?? []), code]);
  const exact: Record<number, { message: string }> = { 500: EXACT.MOCK_NOT_FOUND.body, 502: EXACT.MOCK_ELIGIBILITY_ERROR.body };
  const responses: Json = {
    '200': {
      description:
        'A Bundle with the CoverageEligibilityResponse: outcome `complete` with the benefits, or `error` when the payer rejected the request (its reasons in `error[]`).',
      headers: { ...headers, 'Idempotent-Replayed': header('IdempotentReplayed') },
      content: { [FHIR_CONTENT_TYPE]: { schema: BUNDLE_SCHEMA, examples: examples.answers } },
    },
    '401': { $ref: '#/components/responses/Unauthorized' },
    '429': { $ref: '#/components/responses/TooManyRequests' },
  };
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const codes = byStatus.get(status)!;
    const lines = codes.map((code) => `- \`${code}\``);
    const statusExamples: Json = Object.fromEntries(codes.map((code) => [code, { value: errorExample(code) }]));
    if (exact[status]) {
      lines.push(`- mock mode: ${exact[status].message}`);
      statusExamples.Mock = { value: operationOutcomeOf(exact[status]) };
    }
    const retry = codes.some((code) => status === 503 || code === 'REQUEST_IN_PROGRESS');
    responses[String(status)] = {
      description: `An OperationOutcome:\n${lines.join('\n')}`,
      headers: { ...headers, ...(retry ? { 'Retry-After': header('RetryAfter') } : {}) },
      content: { [FHIR_CONTENT_TYPE]: { schema: OPERATION_OUTCOME_SCHEMA, examples: statusExamples } },
    };
  }
  return {
    parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }, { $ref: '#/components/parameters/XRequestId' }],
    requestBody: { required: true, content: { [FHIR_CONTENT_TYPE]: { schema: requestSchema, examples: examples.requests } } },
    responses,
  };
}

export const FHIR_SUMMARY = {
  operationId: 'submitCoverageEligibilityRequest',
  tag: 'FHIR',
  summary: 'FHIR R4 CoverageEligibilityRequest/$submit',
  description:
    "The eligibility check as the FHIR operation EHRs call. In: a Bundle holding a CoverageEligibilityRequest in any entry (with its Patient, Coverage, insurer and provider as entries), the request alone with them `contained`, or a Parameters whose `resource` parameter holds either; provider and insurer identifiers are chosen by system (`urn:eligibility-service:provider-id`, an NPI `http://hl7.org/fhir/sid/us-npi` matched to your enrollments, `urn:eligibility-service:payer-id`). Out: a Bundle with a CoverageEligibilityResponse. Both are `application/fhir+json` (`application/json` is accepted too). A `meta.tag` `urn:eligibility-service:request-mode|mock` answers from the mock sets. Our own errors are OperationOutcomes with the REST route's status. See docs/fhir.md.",
};
