import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Bundle, CoverageEligibilityResponse } from '@medplum/fhirtypes';
import { fixedClock, systemClock } from '../../lib/config/clock.js';
import { readConfig } from '../../lib/config/index.js';
import type { Enrollment, EnrollmentStore } from '../../lib/enrollment/types.js';
import type { ServiceError } from '../../lib/errors/index.js';
import { operationOutcomeOf } from '../../lib/fhir/outcome.js';
import { readEligibilityBundle } from '../../lib/fhir/request.js';
import { fhirRoute } from '../../lib/fhir/route.js';
import { payerDirectory } from '../../lib/payers/directory.js';
import type { Runtime } from '../../lib/runtime/index.js';
import { searchStediPayers } from '../../lib/upstream/stedi-payers.js';
import { validateBody } from '../../lib/validation/index.js';
import { startClearinghouseSandbox } from '../../infra/dev/sandbox/clearinghouse.js';
import { clearinghouseFor } from '../support/clearinghouse.js';
import { loadR4Definitions, R4_LOAD_TIMEOUT_MS, r4Errors } from '../support/fhir-r4.js';

/**
 * `$submit` with requests as EHRs write them (docs/fhir.md#the-request, #identifiers): a Medplum Bundle
 * (x12.org service types, the request last, an Organization whose NPI comes first), an EHR's bare
 * CoverageEligibilityRequest with contained resources, and a Parameters wrapper; each answered by the
 * real route over the sandbox clearinghouse, every answer and OperationOutcome checked against R4.
 */

type Json = Record<string, any>;
const fixture = (name: string): Json => JSON.parse(readFileSync(new URL(`../fixtures/fhir/${name}`, import.meta.url), 'utf8'));

const ENROLLMENTS: Enrollment[] = [
  { providerId: 'P-1', clientId: 'acme', npi: '1234567893', organizationName: 'Riverside Family Clinic', status: 'active' },
  { providerId: 'P-0', clientId: 'acme', npi: '1234567893', organizationName: 'Riverside (old)', status: 'inactive' },
  { providerId: 'PROVIDER-SANDBOX-1', clientId: 'acme', npi: '1999999976', organizationName: 'Sandbox clinic', status: 'active' },
  { providerId: 'P-OTHER', clientId: 'other', npi: '1245319599', organizationName: 'Elsewhere', status: 'active' },
];
const store: EnrollmentStore = {
  get: async (id) => ENROLLMENTS.find((e) => e.providerId === id),
  put: async () => undefined,
  findByNpi: async (clientId, npi) => ENROLLMENTS.filter((e) => e.clientId === clientId && e.npi === npi),
};

let sandbox: Awaited<ReturnType<typeof startClearinghouseSandbox>>;
beforeAll(async () => {
  sandbox = await startClearinghouseSandbox({ apiKey: 'k' });
  loadR4Definitions();
}, R4_LOAD_TIMEOUT_MS);
afterAll(async () => {
  await sandbox?.close();
});

const runtime = (): Runtime => ({
  config: { ...readConfig({}), stediBaseUrl: sandbox.url },
  enrollments: async () => store,
  clearinghouse: clearinghouseFor(sandbox.url, 'k'),
  clock: systemClock,
});
const submit = (body: Json, payers?: Runtime['payers']) =>
  fhirRoute(
    { ...runtime(), ...(payers ? { payers } : {}) },
    { clock: fixedClock(new Date('2025-03-01T12:00:00.000Z')), newId: () => 'id-1' },
  )({
    body: body as never,
    clientId: 'acme',
    requestId: 'r-1',
  });

/** The answer's CoverageEligibilityResponse, after checking the whole Bundle against R4. */
async function answer(body: Json): Promise<CoverageEligibilityResponse> {
  const outcome = await submit(body);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
  expect(r4Errors(outcome.body)).toEqual([]);
  return (outcome.body as Bundle).entry![0]!.resource as CoverageEligibilityResponse;
}

/** The route's error, after checking its OperationOutcome against R4. */
async function refusal(body: Json, payers?: Runtime['payers']): Promise<ServiceError> {
  const outcome = await submit(body, payers);
  if (outcome.ok || !('code' in outcome.error)) throw new Error(`expected one of our errors, got ${JSON.stringify(outcome)}`);
  expect(r4Errors(operationOutcomeOf(outcome.error))).toEqual([]);
  return outcome.error;
}

const bodyOf = (body: Json) => {
  const mapped = readEligibilityBundle(body);
  if (!mapped.ok) throw new Error(JSON.stringify(mapped.error.errors));
  return mapped.value.body;
};
const problemsOf = (body: Json) => {
  const mapped = readEligibilityBundle(body);
  return mapped.ok ? [] : (mapped.error.errors ?? []);
};
const inNetworkDeductible = (response: CoverageEligibilityResponse, serviceType: string) =>
  response.insurance?.[0]?.item
    ?.find((i) => i.category?.coding?.[0]?.code === serviceType && i.network?.coding?.[0]?.code === 'in' && i.unit?.coding?.[0]?.code === 'individual')
    ?.benefit?.find((b) => b.type.coding?.[0]?.code === 'deductible')?.allowedMoney;

describe('the fixtures, as EHRs send them', () => {
  it('Medplum: the request last, x12.org service types, the provider by its NPI among the enrollments, the insurer by our payer-id system', async () => {
    const bundle = fixture('medplum-bundle.json');
    expect(bodyOf(bundle)).toMatchObject({ payerId: 'SBXPPO', serviceTypeCodes: ['30', '98'], patientMemberId: 'PPO100001' });
    expect(bodyOf(bundle)).not.toHaveProperty('providerId');
    const response = await answer(bundle);
    expect([response.outcome, response.request, response.insurance?.[0]?.inforce]).toEqual([
      'complete',
      { reference: 'urn:uuid:2d3c4b5a-6f7e-4d8c-9b0a-1e2f3a4b5c05' },
      true,
    ]);
    expect([inNetworkDeductible(response, '30'), inNetworkDeductible(response, '98')]).toEqual([
      { value: 1500, currency: 'USD' },
      { value: 1500, currency: 'USD' },
    ]);
  });

  it('an EHR: a bare CoverageEligibilityRequest with contained Patient, Coverage (member id by type MB) and insurer', async () => {
    const request = fixture('ehr-contained-request.json');
    expect(bodyOf(request)).toEqual({
      patientFirstName: 'Maria',
      patientLastName: 'Garcia',
      patientDOB: '04-12-1985',
      patientMemberId: 'PPO100001',
      payerId: 'SBXPPO',
      providerId: 'PROVIDER-SANDBOX-1',
      dateOfCoverage: '03-01-2025',
      serviceTypeCodes: ['30'],
    });
    const response = await answer(request);
    expect(response.outcome).toBe('complete');
    // A '#pat' reference would point at nothing in the answer: the references become what they named.
    expect([response.patient, response.insurer, response.insurance?.[0]?.coverage, response.request]).toEqual([
      { display: 'The Patient contained in the request' },
      { identifier: { value: 'SBXPPO' } },
      { display: 'The Coverage contained in the request' },
      { reference: 'CoverageEligibilityRequest/cer-20250301-0001' },
    ]);
  });

  it('Parameters: the resource parameter holds the Bundle; our provider-id system wins over the NPI listed first; the only insurer identifier counts', async () => {
    const parameters = fixture('parameters.json');
    expect(bodyOf(parameters)).toMatchObject({ providerId: 'PROVIDER-SANDBOX-1', payerId: 'SBXPPO', patientMemberId: 'PPO100001' });
    const response = await answer(parameters);
    expect([response.outcome, response.request]).toEqual(['complete', { reference: 'https://ehr.example.org/fhir/R4/CoverageEligibilityRequest/r-9' }]);
  });
});

describe('identifiers chosen by system, never by position', () => {
  const withIdentifiers = (provider: Json[], insurer: Json[]) => {
    const bundle = fixture('medplum-bundle.json');
    bundle.entry[1].resource.identifier = provider;
    bundle.entry[2].resource.identifier = insurer;
    return bundle;
  };
  const pick = (provider: Json[], insurer: Json[]) => {
    const mapped = readEligibilityBundle(withIdentifiers(provider, insurer));
    if (!mapped.ok) return mapped.error.errors;
    return [mapped.value.body.providerId ?? `npi ${mapped.value.providerNpi?.value}`, mapped.value.body.payerId];
  };
  const npi = { system: 'http://hl7.org/fhir/sid/us-npi', value: '1234567893' };
  const ours = { system: 'urn:eligibility-service:provider-id', value: 'P-1' };
  const payer = { system: 'urn:eligibility-service:payer-id', value: 'SBXPPO' };
  const naic = { system: 'urn:oid:2.16.840.1.113883.6.300', value: '60054' };

  it('the provider: our provider id, else the NPI, else an identifier without a system', () => {
    expect(pick([npi, { value: 'LOCAL' }, ours], [payer])).toEqual(['P-1', 'SBXPPO']);
    expect(pick([{ value: 'LOCAL' }, npi], [payer])).toEqual(['npi 1234567893', 'SBXPPO']);
    expect(pick([{ system: 'http://example.org/tax-id', value: '12-3456789' }, { value: 'LOCAL' }], [payer])).toEqual(['LOCAL', 'SBXPPO']);
  });

  it('the insurer: our payer id, else an identifier without a system, else its only identifier', () => {
    expect(pick([ours], [naic, { value: 'PLAIN' }, payer])).toEqual(['P-1', 'SBXPPO']);
    expect(pick([ours], [naic, { value: 'PLAIN' }])).toEqual(['P-1', 'PLAIN']);
    expect(pick([ours], [naic])).toEqual(['P-1', '60054']);
  });

  it('no usable identifier is a problem saying which systems are read', () => {
    expect(pick([{ system: 'http://example.org/tax-id', value: '12-3456789' }], [naic, { system: 'http://example.org/x', value: 'X' }])).toEqual([
      {
        field: 'Bundle.entry[2].resource.identifier',
        message:
          'must have an identifier with a value: our payer id with system urn:eligibility-service:payer-id, one without a system, or a single identifier',
      },
      {
        field: 'Bundle.entry[1].resource.identifier',
        message:
          'must have an identifier with a value: our provider id with system urn:eligibility-service:provider-id, an NPI (http://hl7.org/fhir/sid/us-npi), or one without a system',
      },
    ]);
  });

  it('an NPI no enrollment of this client has is a 403 naming the identifier used, not the patient', async () => {
    const error = await refusal(withIdentifiers([{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1245319599' }], [payer]));
    expect([error.status, error.code]).toEqual([403, 'PROVIDER_NOT_ENROLLED']);
    expect(error.message).toContain('system http://hl7.org/fhir/sid/us-npi, value "1245319599", at Bundle.entry[1].resource.identifier[0]');
    expect(error.message).not.toMatch(/Garcia|PPO100001|1985/);
  });

  it('a provider id not enrolled is a 403 naming the provider and insurer identifiers used', async () => {
    const error = await refusal(withIdentifiers([{ ...ours, value: 'P-9' }], [naic, payer]));
    expect(error.code).toBe('PROVIDER_NOT_ENROLLED');
    expect(error.message).toBe(
      'The provider is not enrolled for this client and payer (provider identifier used: system urn:eligibility-service:provider-id, value "P-9", at Bundle.entry[1].resource.identifier[0]; insurer identifier used: system urn:eligibility-service:payer-id, value "SBXPPO", at Bundle.entry[2].resource.identifier[1])',
    );
  });

  it('a payer the directory refuses is a 422 naming the insurer identifier used', async () => {
    const directory = payerDirectory({
      search: async (search) => (await searchStediPayers({ baseUrl: sandbox.url, apiKey: 'k', timeoutMs: 5_000 }, search)).result,
    });
    // 54097: Delta Dental of South Dakota, listed NOT_SUPPORTED for eligibility by the sandbox directory.
    const error = await refusal(withIdentifiers([ours], [naic, { value: '54097' }]), directory);
    expect([error.status, error.code]).toEqual([422, 'PAYER_NOT_SUPPORTED']);
    expect(error.message).toMatch(/\(insurer identifier used: no system, value "54097", at Bundle\.entry\[2\]\.resource\.identifier\[1\]\)$/);
  });
});

describe('what FHIR says to refuse', () => {
  it('a modifierExtension we do not know is a 400 naming its url, wherever it sits in what is read', async () => {
    const request = fixture('ehr-contained-request.json');
    request.contained[1].modifierExtension = [{ url: 'http://example.org/fhir/StructureDefinition/coverage-is-hypothetical', valueBoolean: true }];
    request.item[0].modifierExtension = [{ url: 'http://example.org/fhir/StructureDefinition/not-this-item', valueBoolean: true }];
    const error = await refusal(request);
    expect([error.status, error.code, error.errors]).toEqual([
      400,
      'INVALID_REQUEST',
      [
        {
          field: 'CoverageEligibilityRequest.contained[1].modifierExtension[0]',
          message:
            'is a modifier extension this service does not know ("http://example.org/fhir/StructureDefinition/coverage-is-hypothetical"); FHIR requires refusing a resource whose meaning it may change',
        },
        {
          field: 'CoverageEligibilityRequest.item[0].modifierExtension[0]',
          message:
            'is a modifier extension this service does not know ("http://example.org/fhir/StructureDefinition/not-this-item"); FHIR requires refusing a resource whose meaning it may change',
        },
      ],
    ]);
    expect(operationOutcomeOf(error).issue[0]?.expression).toEqual(['CoverageEligibilityRequest.contained[1].modifierExtension[0]']);
  });

  it('a plain extension is not a reason to refuse', () => {
    const request = fixture('ehr-contained-request.json');
    request.extension = [{ url: 'http://example.org/fhir/StructureDefinition/source-system', valueString: 'EHR' }];
    expect(problemsOf(request)).toEqual([]);
  });

  it('servicedPeriod starting after it ends is a 400', async () => {
    const request = fixture('ehr-contained-request.json');
    request.servicedPeriod = { start: '2025-03-31', end: '2025-03-01' };
    const error = await refusal(request);
    expect([error.status, error.errors]).toEqual([
      400,
      [{ field: 'CoverageEligibilityRequest.servicedPeriod', message: 'must not start after it ends (start is later than end)' }],
    ]);
    // Times are compared as instants: 01:00 at +05:00 on the 2nd is 20:00Z on the 1st, before the end.
    request.servicedPeriod = { start: '2025-03-02T01:00:00+05:00', end: '2025-03-01T21:00:00Z' };
    expect(bodyOf(request).dateOfCoverage).toBe('03-02-2025');
    request.servicedPeriod = { start: '2025-03-01T22:00:00Z', end: '2025-03-01T21:00:00Z' };
    expect(problemsOf(request).map((p) => p.field)).toEqual(['CoverageEligibilityRequest.servicedPeriod']);
  });
});

describe('the shapes, and what is not one', () => {
  it("the body's outer check (before the route) lets the three shapes through and names them when refusing another", () => {
    for (const name of ['medplum-bundle.json', 'ehr-contained-request.json', 'parameters.json']) {
      expect([name, r4Errors(fixture(name)), validateBody('fhir', fixture(name)).ok]).toEqual([name, [], true]);
    }
    const patient = validateBody('fhir', { resourceType: 'Patient' });
    expect(patient.ok ? [] : patient.error.errors).toEqual([{ field: 'resourceType', message: 'must be Bundle, CoverageEligibilityRequest or Parameters' }]);
    const huge = validateBody('fhir', { resourceType: 'CoverageEligibilityRequest', contained: Array.from({ length: 10_000 }, () => ({})) });
    expect(huge.ok ? [] : huge.error.errors).toEqual([{ field: 'contained', message: 'must list at most 50 contained resources' }]);
  });

  it('a Bundle must hold exactly one CoverageEligibilityRequest, anywhere', () => {
    const bundle = fixture('medplum-bundle.json');
    bundle.entry.push(structuredClone(bundle.entry[4]));
    expect(problemsOf(bundle)).toEqual([{ field: 'Bundle.entry', message: 'must hold one CoverageEligibilityRequest; entries 4, 5 are all requests' }]);
    bundle.entry.splice(4, 2);
    expect(problemsOf(bundle)).toEqual([
      { field: 'Bundle.entry', message: 'must hold a CoverageEligibilityRequest (the request to check) in one of its entries' },
    ]);
  });

  it('a Parameters needs a resource parameter holding a Bundle or a CoverageEligibilityRequest', () => {
    const parameters = fixture('parameters.json');
    parameters.parameter[0].name = 'request';
    expect(problemsOf(parameters)).toEqual([
      { field: 'Parameters.parameter', message: 'must have a parameter named "resource" holding the Bundle or the CoverageEligibilityRequest' },
    ]);
    parameters.parameter[0] = { name: 'resource', resource: { resourceType: 'Patient' } };
    expect(problemsOf(parameters)).toEqual([
      { field: 'Parameters.parameter[0].resource.resourceType', message: 'must be "Bundle" or "CoverageEligibilityRequest"' },
    ]);
  });

  it('a reference to a contained resource that is not there names the #id', () => {
    const request = fixture('ehr-contained-request.json');
    request.patient = { reference: '#nobody' };
    expect(problemsOf(request)).toEqual([
      {
        field: 'CoverageEligibilityRequest.patient.reference',
        message: 'must point at an entry of the Bundle (by fullUrl or Type/id) or a contained resource (#id); nothing matches "#nobody"',
      },
    ]);
  });

  it('a Coverage with neither subscriberId nor an MB identifier has no member id, reported at subscriberId', () => {
    const request = fixture('ehr-contained-request.json');
    request.contained[1].identifier.pop();
    const mapped = readEligibilityBundle(request);
    expect(mapped.ok && [mapped.value.body.patientMemberId, mapped.value.sources.patientMemberId]).toEqual([
      undefined,
      'CoverageEligibilityRequest.contained[1].subscriberId',
    ]);
  });
});
