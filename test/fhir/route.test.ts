import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { clearinghouseFor } from '../support/clearinghouse.js';
import { fixedClock, systemClock } from '../../lib/config/clock.js';
import type { Bundle, CoverageEligibilityResponse, CoverageEligibilityResponseInsuranceItem as Item } from '@medplum/fhirtypes';
import { readConfig } from '../../lib/config/index.js';
import type { Enrollment, EnrollmentStore } from '../../lib/enrollment/types.js';
import { SYSTEMS } from '../../lib/fhir/codes.js';
import { fhirRoute } from '../../lib/fhir/route.js';
import type { Runtime } from '../../lib/runtime/index.js';
import type { EligibilityRequest } from '../../lib/validation/index.js';
import { requestBundle } from '../../infra/tools/openapi/fhir.js';
import { startClearinghouseSandbox } from '../../infra/dev/sandbox/clearinghouse.js';
import { SANDBOX_PATIENTS } from '../../infra/dev/sandbox/patients.js';
import { MOCK_SET_1 } from '../support/events.js';
import { loadR4Definitions, R4_LOAD_TIMEOUT_MS, r4Errors } from '../support/fhir-r4.js';

/** The FHIR route over the real eligibility route: sandbox clearinghouse on loopback, in-memory enrollments. */

const ENROLLED: Enrollment = { providerId: 'P-1', clientId: 'acme', npi: '1234567893', organizationName: 'Clinic', status: 'active' };
const store: EnrollmentStore = { get: async (id) => (id === ENROLLED.providerId ? ENROLLED : undefined), put: async () => undefined };
const NOW = new Date('2025-03-01T12:00:00.000Z');

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
const route = () => fhirRoute(runtime(), { clock: fixedClock(NOW), newId: () => 'id-1' });
const submit = (body: EligibilityRequest) => route()({ body: requestBundle(body) as never, clientId: 'acme', requestId: 'r-1' });

const patient = (lastName: string) => {
  const p = SANDBOX_PATIENTS.find((candidate) => candidate.lastName === lastName)!;
  return {
    patientFirstName: p.firstName,
    patientLastName: p.lastName,
    patientDOB: p.dob,
    patientMemberId: p.memberId,
    dateOfCoverage: '03-01-2025',
    payerId: p.payerId,
    providerId: 'P-1',
  };
};

/** The one CoverageEligibilityResponse of an answer Bundle, after checking the Bundle against R4. */
function responseOf(body: unknown): CoverageEligibilityResponse {
  expect(r4Errors(body)).toEqual([]);
  const bundle = body as Bundle;
  expect([bundle.resourceType, bundle.type, bundle.entry?.length, bundle.entry?.[0]?.fullUrl]).toEqual(['Bundle', 'collection', 1, 'urn:uuid:id-1']);
  return bundle.entry![0]!.resource as CoverageEligibilityResponse;
}

const key = (item: Item) =>
  [item.category?.coding?.[0]?.code ?? item.productOrService?.coding?.[0]?.code, item.network?.coding?.[0]?.code, item.unit?.coding?.[0]?.code].join('/');
const benefit = (item: Item | undefined, code: string) => item?.benefit?.find((b) => b.type.coding?.[0]?.code === code);

describe('answers as a CoverageEligibilityResponse', () => {
  it('Maria Garcia (active PPO): inforce, the plan period, and each figure per service type × network × unit', async () => {
    const outcome = await submit({ ...patient('Garcia'), serviceTypeCodes: ['30', '98'] });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    const response = responseOf(outcome.body);
    expect(response).toMatchObject({
      status: 'active',
      outcome: 'complete',
      created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/),
      purpose: ['benefits', 'validation'],
    });
    expect(response.disposition).toMatch(/^Eligibility check successful\./);
    const insurance = response.insurance![0]!;
    expect([insurance.coverage, insurance.inforce, insurance.benefitPeriod]).toEqual([{ reference: 'Coverage/cov-1' }, true, { start: '2025-01-01' }]);
    const items = new Map(insurance.item!.map((item) => [key(item), item]));
    expect([...items.keys()].slice(0, 8)).toEqual([
      '30/in/individual',
      '30/in/family',
      '30/out/individual',
      '30/out/family',
      '98/in/individual',
      '98/in/family',
      '98/out/individual',
      '98/out/family',
    ]);
    // docs/eligibility.md: in-network individual deductible $1,500.00 with $1,250.50 left → $249.50 used.
    expect([
      benefit(items.get('30/in/individual'), 'deductible')?.allowedMoney?.value,
      benefit(items.get('30/in/individual'), 'deductible')?.usedMoney?.value,
    ]).toEqual([1500, 249.5]);
    // Family: $3,000.00 with $1,849.75 left → $1,150.25 used (the payer's year-to-date figure).
    expect(benefit(items.get('30/in/family'), 'deductible')?.usedMoney).toEqual({ value: 1150.25, currency: 'USD' });
    expect(benefit(items.get('30/in/individual'), 'copay-percent')?.allowedUnsignedInt).toBe(20);
    expect([benefit(items.get('30/in/individual'), 'G')?.allowedMoney?.value, benefit(items.get('30/in/individual'), 'G')?.usedMoney?.value]).toEqual([
      6000, 1800,
    ]);
    expect(benefit(items.get('98/in/individual'), 'copay')?.allowedMoney).toEqual({ value: 25, currency: 'USD' });
    expect(benefit(items.get('98/out/family'), 'copay')?.allowedMoney?.value).toBe(120);
    expect(items.get('98/in/individual')?.category?.coding?.[0]).toEqual({
      system: SYSTEMS.x12ServiceType,
      code: '98',
      display: 'Professional (Physician) Visit - Office',
    });
  });

  it('Marcus Lee: authorization flags, a not-covered service as excluded, and a procedure item by productOrService', async () => {
    const outcome = await submit({ ...patient('Lee'), serviceTypeCodes: ['30', '33', 'AL'], procedureCodes: ['97110'] });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    const items = responseOf(outcome.body).insurance![0]!.item!;
    // Authorization per network (docs/fhir.md#benefits): the payer requires it in network for 33 and says nothing out of network.
    const chiropractic = items.filter((item) => item.category?.coding?.[0]?.code === '33');
    const network = (item: (typeof items)[number]) => item.network?.coding?.[0]?.code;
    const inNetwork = chiropractic.filter((item) => network(item) === 'in');
    expect(inNetwork.length).toBeGreaterThan(0);
    expect(inNetwork.every((item) => item.authorizationRequired === true)).toBe(true);
    expect(chiropractic.filter((item) => network(item) === 'out').every((item) => item.authorizationRequired === undefined)).toBe(true);
    expect(items.filter((item) => item.category?.coding?.[0]?.code === 'AL')).toEqual([expect.objectContaining({ excluded: true })]);
    const procedure = items.filter((item) => item.productOrService);
    expect(procedure.length).toBeGreaterThan(0);
    expect(procedure[0]).toMatchObject({
      productOrService: { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '97110' }] },
      authorizationRequired: true,
    });
    expect(procedure.every((item) => item.category === undefined)).toBe(true);
  });

  it('Susan Miller (inactive): inforce false with the plan period, no benefit figures', async () => {
    const outcome = await submit(patient('Miller'));
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    const insurance = responseOf(outcome.body).insurance![0]!;
    expect([insurance.inforce, insurance.benefitPeriod, insurance.item]).toEqual([false, { start: '2023-01-01', end: '2024-12-31' }, undefined]);
  });

  it('purpose validation alone: whether coverage is in force, without items', async () => {
    const bundle = requestBundle(patient('Garcia')) as unknown as { entry: { resource: { purpose: string[] } }[] };
    bundle.entry[0]!.resource.purpose = ['validation'];
    const outcome = await route()({ body: bundle as never, clientId: 'acme', requestId: 'r-1' });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    const response = responseOf(outcome.body);
    expect([response.purpose, response.insurance?.[0]?.inforce, response.insurance?.[0]?.item]).toEqual([['validation'], true, undefined]);
  });

  it('mock set 1 (meta.tag mock): the fixed figures as service type 30, created from the injected clock', async () => {
    const outcome = await submit({ ...MOCK_SET_1, mockRequest: true });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    const response = responseOf(outcome.body);
    expect([response.created, response.disposition, response.insurance?.[0]?.inforce]).toEqual([
      '2025-03-01T12:00:00.000Z',
      'Mock Eligibility check successful.',
      undefined,
    ]);
    const items = new Map(response.insurance![0]!.item!.map((item) => [key(item), item]));
    expect([...items.keys()]).toEqual(['30/in/individual', '30/in/family', '30/out/individual', '30/out/family']);
    // Set 1 in-network individual: deductible $500.00 with $200.00 remaining → used $300.00; copay $20.00; 10%; stop-loss $2,000.00.
    const individual = items.get('30/in/individual');
    expect(individual?.benefit?.map((b) => [b.type.coding?.[0]?.code, b.allowedMoney?.value ?? b.allowedUnsignedInt, b.usedMoney?.value])).toEqual([
      ['deductible', 500, 300],
      ['copay', 20, undefined],
      ['copay-percent', 10, undefined],
      ['G', 2000, undefined],
    ]);
    expect(benefit(items.get('30/out/family'), 'deductible')?.usedMoney?.value).toBe(500);
  });
});

describe('rejections and errors', () => {
  it('a payer rejection (AAA 75) is an answer with outcome error and the reason in error[]', async () => {
    const outcome = await submit(patient('Lopez'));
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    const response = responseOf(outcome.body);
    expect([response.outcome, response.insurance]).toEqual(['error', undefined]);
    expect(response.error).toEqual([
      {
        code: {
          coding: [{ system: SYSTEMS.x12RejectReason, code: '75', display: 'Subscriber/Insured Not Found' }],
          text: expect.stringContaining('loop 2100C'),
        },
      },
    ]);
    expect(outcome.log?.code).toBe('PAYER_REJECTED');
  });

  it('our own errors stay errors (the handler writes them as OperationOutcome): not enrolled, payer unavailable, mock set 4', async () => {
    const notEnrolled = await submit({ ...patient('Garcia'), providerId: 'P-UNKNOWN' });
    expect(notEnrolled.ok === false && 'code' in notEnrolled.error && notEnrolled.error.code).toBe('PROVIDER_NOT_ENROLLED');
    const unavailable = await submit(patient('Young'));
    expect(unavailable.ok === false && unavailable.error.status).toBe(503);
    const set4 = await submit({
      patientFirstName: 'Emily',
      patientLastName: 'Davis',
      patientDOB: '04-04-1990',
      patientMemberId: 'MBR4004004',
      dateOfCoverage: '04-01-2025',
      payerId: 'PAYER004',
      providerId: 'PROVIDER004',
      mockRequest: true,
    });
    expect(set4).toEqual({
      ok: false,
      error: { status: 502, body: { message: 'Mock: Error retrieving eligibility data.' } },
      log: { mock: true, payerId: 'PAYER004' },
    });
  });

  it('a Bundle breaking the eligibility rules is INVALID_REQUEST located in the Bundle, without an upstream call', async () => {
    const before = sandbox.stats.rawX12Calls;
    const outcome = await submit({ ...patient('Garcia'), procedureCodes: ['9921'] });
    expect(outcome.ok === false && 'code' in outcome.error && [outcome.error.code, outcome.error.errors]).toEqual([
      'INVALID_REQUEST',
      [
        {
          field: 'Bundle.entry[0].resource.item[0].productOrService.coding[0].code',
          message: 'must be a procedure code of 5 letters or digits (CPT, HCPCS or CDT, such as 99213 or D0120)',
        },
      ],
    ]);
    expect(sandbox.stats.rawX12Calls).toBe(before);
  });
});
