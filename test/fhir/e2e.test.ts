import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Bundle, CoverageEligibilityResponse, OperationOutcome } from '@medplum/fhirtypes';
import { requestBundle } from '../../infra/tools/openapi/fhir.js';
import { SANDBOX_PATIENTS } from '../../infra/dev/sandbox/patients.js';
import { MOCK_SET_1 } from '../support/events.js';
import { loadR4Definitions, R4_LOAD_TIMEOUT_MS, r4Errors } from '../support/fhir-r4.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';

/**
 * The FHIR route end to end, as `npm start` serves it (local server, dev token, sandbox clearinghouse,
 * enrollments in dynalite): every sandbox patient through `$submit`, every answer checked against R4.
 */

const SUBMIT = '/api/fhir/r4/CoverageEligibilityRequest/$submit';
const FHIR = 'application/fhir+json';

let api: LocalApi;
beforeAll(async () => {
  loadR4Definitions();
  api = await startLocalApi();
}, R4_LOAD_TIMEOUT_MS);
afterAll(async () => {
  await api?.close();
});

const post = (bundle: unknown, init: { contentType?: string; headers?: Record<string, string>; rawBody?: string } = {}) =>
  api.call(SUBMIT, bundle, {
    contentType: init.contentType ?? FHIR,
    ...(init.headers ? { headers: init.headers } : {}),
    ...(init.rawBody ? { rawBody: init.rawBody } : {}),
  });

const bodyFor = (p: (typeof SANDBOX_PATIENTS)[number]) => ({
  patientFirstName: p.firstName,
  patientLastName: p.lastName,
  patientDOB: p.dob,
  patientMemberId: p.memberId,
  dateOfCoverage: '03-01-2025',
  payerId: p.payerId,
  providerId: 'PROVIDER-SANDBOX-1',
});

/** What a REST caller gets for the same patient, to hold the FHIR answer to the same figures. */
const rest = async (body: object) => (await api.call('/api/eligibility/v1', body)).body;

describe('every sandbox patient through $submit', () => {
  // Faults and AAA 42/79/80 are our errors (503/502), not the payer's answer: the next test covers them.
  const answering = SANDBOX_PATIENTS.filter((p) => !p.fault && !['42', '79', '80'].includes(p.aaa?.code ?? ''));

  it.each(answering.map((p) => [`${p.firstName} ${p.lastName}`, p] as const))('%s: a valid R4 Bundle with the REST answer in FHIR terms', async (_name, p) => {
    const reply = await post(requestBundle(bodyFor(p)));
    expect([reply.status, reply.headers.get('content-type'), reply.headers.get('cache-control')]).toEqual([200, FHIR, 'no-store']);
    expect(r4Errors(reply.body)).toEqual([]);
    const response = (reply.body as Bundle).entry![0]!.resource as CoverageEligibilityResponse;
    if (p.aaa) {
      expect([response.outcome, response.error?.map((e) => e.code.coding?.[0]?.code)]).toEqual(['error', [p.aaa.code]]);
      return;
    }
    const answer = await rest(bodyFor(p));
    expect(response.outcome).toBe('complete');
    expect(response.insurance?.[0]?.inforce).toBe({ Active: true, Inactive: false, Unknown: undefined }[answer.coverageStatus as string]);
    // The in-network individual deductible of service type 30, in cents, against the REST figures.
    const cents = (text: string) => (text === 'N/A' ? undefined : Math.round(Number(text.replace(/[$,]/g, '')) * 100));
    const plan = answer.benefits.find((b: { serviceType: { code: string } }) => b.serviceType.code === '30') ?? answer;
    const figures = plan.inNetwork.individual.deductible;
    const item = response.insurance?.[0]?.item?.find(
      (i) => i.category?.coding?.[0]?.code === '30' && i.network?.coding?.[0]?.code === 'in' && i.unit?.coding?.[0]?.code === 'individual',
    );
    const deductible = item?.benefit?.find((b) => b.type.coding?.[0]?.code === 'deductible');
    const total = cents(figures.total);
    const remaining = cents(figures.remaining);
    expect(deductible?.allowedMoney?.value === undefined ? undefined : Math.round(deductible.allowedMoney.value * 100)).toBe(total);
    const used = total !== undefined && remaining !== undefined && remaining <= total ? total - remaining : undefined;
    expect(deductible?.usedMoney?.value === undefined ? undefined : Math.round(deductible.usedMoney.value * 100)).toBe(used);
  });

  it('a payer that stays unavailable is a 503 OperationOutcome with Retry-After', async () => {
    const young = SANDBOX_PATIENTS.find((p) => p.lastName === 'Young')!;
    const reply = await post(requestBundle(bodyFor(young)));
    expect([reply.status, reply.headers.get('content-type'), reply.headers.get('retry-after')]).toEqual([503, FHIR, expect.stringMatching(/^\d+$/)]);
    expect(r4Errors(reply.body)).toEqual([]);
    expect((reply.body as OperationOutcome).issue[0]).toMatchObject({ code: 'transient', details: { coding: [{ code: 'PAYER_UNAVAILABLE' }] } });
  });
});

describe('requests as EHRs write them, over HTTP (docs/fhir.md#as-ehrs-write-it)', () => {
  const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/fhir/${name}`, import.meta.url), 'utf8'));

  it.each([
    ['a Medplum Bundle (provider by NPI, matched in the enrollments table)', 'medplum-bundle.json'],
    ['a bare request with contained resources', 'ehr-contained-request.json'],
    ['a Parameters wrapper', 'parameters.json'],
  ])('%s: 200 and a valid R4 answer for Maria Garcia', async (_what, name) => {
    const reply = await post(fixture(name));
    expect([reply.status, r4Errors(reply.body)]).toEqual([200, []]);
    const response = (reply.body as Bundle).entry![0]!.resource as CoverageEligibilityResponse;
    expect([response.outcome, response.insurance?.[0]?.inforce]).toEqual(['complete', true]);
  });
});

describe('mock mode and errors over HTTP', () => {
  it('mock set 1 answers from the fixed figures; set 4 is a 502 OperationOutcome', async () => {
    const one = await post(requestBundle({ ...MOCK_SET_1, mockRequest: true }));
    expect([one.status, r4Errors(one.body), (one.body as Bundle).entry?.[0]?.resource?.resourceType]).toEqual([200, [], 'CoverageEligibilityResponse']);
    const four = await post(
      requestBundle({
        patientFirstName: 'Emily',
        patientLastName: 'Davis',
        patientDOB: '04-04-1990',
        patientMemberId: 'MBR4004004',
        dateOfCoverage: '04-01-2025',
        payerId: 'PAYER004',
        providerId: 'PROVIDER004',
        mockRequest: true,
      }),
    );
    expect([four.status, four.headers.get('content-type'), four.body]).toEqual([
      502,
      FHIR,
      { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'exception', details: { text: 'Mock: Error retrieving eligibility data.' } }] },
    ]);
  });

  it('a provider not enrolled is 403, an invalid Bundle 400 with located issues, all OperationOutcomes', async () => {
    const garcia = bodyFor(SANDBOX_PATIENTS.find((p) => p.lastName === 'Garcia')!);
    const forbidden = await post(requestBundle({ ...garcia, providerId: 'PROVIDER-OTHER-CLIENT' }));
    expect([forbidden.status, forbidden.body.issue[0].code, r4Errors(forbidden.body)]).toEqual([403, 'forbidden', []]);
    const broken = requestBundle(garcia) as unknown as { entry: { resource: Record<string, unknown> }[] };
    broken.entry[1]!.resource.birthDate = '1985-02-30';
    const invalid = await post(broken);
    expect([invalid.status, invalid.body.issue.map((i: { expression: string[] }) => i.expression[0]), r4Errors(invalid.body)]).toEqual([
      400,
      ['Bundle.entry[1].resource.birthDate'],
      [],
    ]);
    const notBundle = await post({ resourceType: 'Patient' });
    expect([notBundle.status, notBundle.body.issue.map((i: { expression: string[] }) => i.expression[0])]).toEqual([400, ['Bundle.resourceType']]);
  });

  it('accepts application/json too; refuses another media type and broken JSON as OperationOutcomes', async () => {
    const json = await post(requestBundle({ ...MOCK_SET_1, mockRequest: true }), { contentType: 'application/json' });
    expect([json.status, json.headers.get('content-type')]).toEqual([200, FHIR]);
    const xml = await post(undefined, { contentType: 'application/fhir+xml', rawBody: '<Bundle/>' });
    expect([xml.status, xml.body.issue[0].code, xml.body.issue[0].details.coding[0].code]).toEqual([415, 'not-supported', 'UNSUPPORTED_MEDIA_TYPE']);
    const broken = await post(undefined, { rawBody: '{"resourceType":' });
    expect([broken.status, broken.body.resourceType, broken.body.issue[0].code]).toEqual([400, 'OperationOutcome', 'structure']);
  });

  it('an Idempotency-Key replays the same Bundle, marked replayed', async () => {
    const bundle = requestBundle({ ...MOCK_SET_1, mockRequest: true });
    const headers = { 'Idempotency-Key': `fhir-${Date.now()}` };
    const first = await post(bundle, { headers });
    const second = await post(bundle, { headers });
    expect([second.status, second.headers.get('idempotent-replayed'), second.headers.get('content-type'), second.body]).toEqual([
      200,
      'true',
      FHIR,
      first.body,
    ]);
  });
});
