import { DISCOVERY_SANDBOX_PATIENTS, MBI_SANDBOX_PATIENTS } from '../../dev/sandbox/discovery.js';
import { DEFAULT_DISCOVERY_MAX_PER_DAY } from '../../../lib/config/index.js';
import { discoveryResponseSchema, mbiResponseSchema } from '../../../lib/validation/responses/discovery.js';
import { SCHEMAS } from '../../../lib/validation/schemas.js';

/**
 * Finding the coverage in the OpenAPI document (docs/finding-coverage.md): insurance discovery (start,
 * poll) and the Medicare number lookup, their summaries, operations and schemas; request examples
 * are the sandbox patients.
 */

type Json = Record<string, unknown>;

const TAG = 'Finding coverage';
export const COVERAGE_TAG = {
  name: TAG,
  description: 'Insurance discovery when the payer is unknown, and the Medicare number lookup (docs/finding-coverage.md).',
};

export const COVERAGE_SUMMARIES = {
  discovery: {
    operationId: 'discoverInsurance',
    tag: TAG,
    summary: 'Find unknown coverage (insurance discovery)',
    description: `Searches for the patient's coverage from demographics (the more given, address and SSN above all, the better the match). Answers 200 COMPLETE with one item per coverage found, each with its eligibility answer, or 202 PENDING with \`Location\` to poll. Costs far more than a check: each client may send ${DEFAULT_DISCOVERY_MAX_PER_DAY} a UTC day (DISCOVERY_MAX_PER_DAY; 429 DISCOVERY_LIMIT_EXCEEDED with Retry-After), an Idempotency-Key replay is free. Needs an active enrollment of \`providerId\`. See docs/finding-coverage.md.`,
  },
  discoveryStatus: {
    operationId: 'getInsuranceDiscovery',
    tag: TAG,
    summary: 'Poll an insurance discovery',
    description:
      "PENDING until the clearinghouse finishes, then COMPLETE with the coverages (kept 24 hours). Another client's id is 404 NOT_FOUND, exactly like an unknown one.",
  },
  medicare: {
    operationId: 'lookupMedicareNumber',
    tag: TAG,
    summary: 'Look up a Medicare number (MBI)',
    description:
      "Finds the patient's Medicare Beneficiary Identifier and answers the Original Medicare eligibility with it, by SSN or, without one, by the state the patient lives in (one of the two is required: 400 naming both). 422 PAYER_REJECTED with the payer's AAA when Medicare finds no one. Needs an active enrollment of `providerId`. See docs/finding-coverage.md#medicare-number.",
  },
} as const;

export const COVERAGE_SCHEMAS: Record<string, unknown> = {
  DiscoveryRequest: SCHEMAS.discovery,
  MbiRequest: SCHEMAS.mbi,
  DiscoveryResponse: discoveryResponseSchema,
  MbiResponse: mbiResponseSchema,
};

export const COVERAGE_PATH_PARAMETERS: Record<string, Json[]> = {
  '/api/insurance-discovery/v1/{discoveryId}': [
    {
      name: 'discoveryId',
      in: 'path',
      required: true,
      description: 'The discoveryId POST answered.',
      schema: { type: 'string', minLength: 1, maxLength: 100 },
      example: '0b6a5f0e-4f0c-4d8e-9a43-1c2d3e4f5a6b',
    },
  ],
};

interface Builders {
  ok: (schema: string, description: string, examples?: Json) => Json;
  errors: (route: 'discovery' | 'discovery-read' | 'mbi') => Json;
}

const patientExample = (p: { firstName: string; lastName: string; dob: string }) => ({
  patientFirstName: p.firstName,
  patientLastName: p.lastName,
  patientDOB: p.dob,
});

export function coverageOperations({ ok, errors }: Builders): Record<keyof typeof COVERAGE_SUMMARIES, Json> {
  const common = [{ $ref: '#/components/parameters/IdempotencyKey' }, { $ref: '#/components/parameters/XRequestId' }];
  const discoveryExamples = Object.fromEntries(
    DISCOVERY_SANDBOX_PATIENTS.map((p) => [
      `${p.firstName}${p.lastName}`,
      { summary: `Sandbox: ${p.scenario}`, value: { ...patientExample(p), dateOfService: '03-01-2025', providerId: 'PROVIDER-SANDBOX-1' } },
    ]),
  );
  const mbiExamples = Object.fromEntries(
    MBI_SANDBOX_PATIENTS.map((m) => [
      m.ssn ? 'withSsn' : 'withoutSsn',
      {
        summary: m.ssn ? 'Sandbox: by SSN' : 'Sandbox: without SSN, by state',
        value: {
          ...patientExample(m.patient),
          ...(m.ssn ? { patientSSN: m.ssn } : { patientState: m.state }),
          dateOfCoverage: '03-01-2025',
          providerId: 'PROVIDER-SANDBOX-1',
        },
      },
    ]),
  );
  const body = (schema: string, examples: Json) => ({
    required: true,
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` }, examples } },
  });
  return {
    discovery: {
      parameters: common,
      requestBody: body('DiscoveryRequest', discoveryExamples),
      responses: {
        '200': ok('DiscoveryResponse', 'COMPLETE: every coverage found (maybe none), each with its eligibility answer.'),
        '202': {
          ...ok('DiscoveryResponse', 'PENDING: poll Location (GET /api/insurance-discovery/v1/{discoveryId}).'),
          headers: {
            Location: { schema: { type: 'string' }, description: "The discovery's URL path." },
            'x-request-id': { $ref: '#/components/headers/XRequestId' },
          },
        },
        ...errors('discovery'),
      },
    },
    discoveryStatus: {
      parameters: [{ $ref: '#/components/parameters/XRequestId' }],
      responses: { '200': ok('DiscoveryResponse', 'PENDING, or COMPLETE with the coverages.'), ...errors('discovery-read') },
    },
    medicare: {
      parameters: common,
      requestBody: body('MbiRequest', mbiExamples),
      responses: { '200': ok('MbiResponse', 'The Medicare number and the Original Medicare eligibility answer.'), ...errors('mbi') },
    },
  };
}
