import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { clearinghouseFor } from '../support/clearinghouse.js';
import { systemClock } from '../../lib/config/clock.js';
import { readConfig } from '../../lib/config/index.js';
import { cobRoute } from '../../lib/cob/route.js';
import { eligibilityRoute } from '../../lib/eligibility/route.js';
import type { Enrollment, EnrollmentStore } from '../../lib/enrollment/types.js';
import { fail, serviceError } from '../../lib/errors/index.js';
import type { Runtime } from '../../lib/runtime/index.js';
import { startClearinghouseSandbox } from '../../infra/dev/sandbox/clearinghouse.js';
import { MOCK_SET_1, SANDBOX_GARCIA } from '../support/events.js';

/** The route functions with an injected runtime: in-memory enrollments, the sandbox on loopback. */

const ENROLLED: Enrollment = { providerId: 'P-1', clientId: 'acme', npi: '1234567893', organizationName: 'Clinic', status: 'active' };
const memoryStore = (records: Enrollment[]): EnrollmentStore => ({
  get: async (id) => records.find((r) => r.providerId === id),
  put: async () => undefined,
});
const garcia = { ...SANDBOX_GARCIA, providerId: 'P-1' };

let sandbox: Awaited<ReturnType<typeof startClearinghouseSandbox>>;
beforeAll(async () => {
  sandbox = await startClearinghouseSandbox({ apiKey: 'k' });
});
afterAll(async () => {
  await sandbox?.close();
});

function runtime(overrides: Partial<Runtime> = {}): Runtime {
  return {
    config: { ...readConfig({}), stediBaseUrl: sandbox.url },
    enrollments: async () => memoryStore([ENROLLED]),
    clearinghouse: clearinghouseFor(sandbox.url, 'k'),
    clock: systemClock,
    ...overrides,
  };
}

const input = <B>(body: B) => ({ body, clientId: 'acme', requestId: 'r-1' });

describe('eligibility route', () => {
  it('answers mock requests without touching enrollments or the clearinghouse', async () => {
    const before = sandbox.stats.rawX12Calls;
    const route = eligibilityRoute(
      runtime({
        enrollments: async () => {
          throw new Error('enrollments must not be read for mocks');
        },
      }),
    );
    const outcome = await route(input(MOCK_SET_1));
    expect(outcome.ok).toBe(true);
    expect(sandbox.stats.rawX12Calls).toBe(before);
  });

  it('is a 500 CONFIGURATION_ERROR, without any upstream call, when the Stedi key is missing', async () => {
    const before = sandbox.stats.rawX12Calls;
    const missing = serviceError('CONFIGURATION_ERROR', { message: 'The clearinghouse API key is not configured (STEDI_SECRET_ARN or STEDI_API_KEY)' });
    const outcome = await eligibilityRoute(runtime({ clearinghouse: clearinghouseFor(sandbox.url, 'k', { apiKey: async () => fail(missing) }) }))(
      input(garcia),
    );
    expect(outcome).toEqual({ ok: false, error: missing });
    expect(sandbox.stats.rawX12Calls).toBe(before);
  });

  it('checks enrollment before the key, and refuses another client with PROVIDER_NOT_ENROLLED', async () => {
    const outcome = await eligibilityRoute(runtime())({ ...input(garcia), clientId: 'someone-else' });
    expect(outcome.ok === false && outcome.error).toMatchObject({ status: 403, code: 'PROVIDER_NOT_ENROLLED' });
  });

  it('returns the summary with message, coverageStatus and payerName', async () => {
    const outcome = await eligibilityRoute(runtime())(input(garcia));
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    expect(outcome.body).toMatchObject({ message: 'Eligibility check successful', coverageStatus: 'Active', payerName: 'SANDBOX HEALTH PPO' });
    expect(Object.keys(outcome.body as object)).not.toContain('cob');
  });

  it('answers every key of the revision-2 answer, in the documented order', async () => {
    const before = Date.now();
    const outcome = await eligibilityRoute(runtime())(input({ ...garcia, procedureCodes: ['99285'] }));
    const after = Date.now();
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    const body = outcome.body as Record<string, unknown>;
    expect(Object.keys(body)).toEqual([
      'inNetwork',
      'outNetwork',
      'message',
      'coverageStatus',
      'payerName',
      'checkedAt',
      'plan',
      'subscriber',
      'benefits',
      'procedures',
      'otherPayers',
      'notices',
    ]);
    expect(body.checkedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // Stamped during this check: between the moments just before and just after it (no bound on how long it took).
    expect(Date.parse(body.checkedAt as string)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(body.checkedAt as string)).toBeLessThanOrEqual(after);
    expect(body.subscriber).toEqual({ firstName: 'MARIA', lastName: 'GARCIA', memberId: 'PPO100001', dateOfBirth: '1985-04-12' });
    expect(body.procedures).toEqual([
      expect.objectContaining({ code: '99285', inNetwork: expect.objectContaining({ individual: expect.objectContaining({ copay: '$75.00' }) }) }),
    ]);
  });

  it('estimate: its codes are asked (benefits and procedures entries), and estimate comes after notices, before cob', async () => {
    const estimate = { lines: [{ procedureCode: '99285', serviceTypeCode: 'UC', amount: 300 }, { amount: 2000 }] };
    const outcome = await eligibilityRoute(runtime())(input({ ...garcia, runCobCheck: true, estimate }));
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    const body = outcome.body as Record<string, unknown> & { estimate: { lines: { basis: string; patientOwes: string }[] } };
    expect(Object.keys(body).slice(-6)).toEqual(['benefits', 'procedures', 'otherPayers', 'notices', 'estimate', 'cob']);
    expect((body.benefits as { serviceType: { code: string } }[]).slice(0, 2).map((b) => b.serviceType.code)).toEqual(['30', 'UC']);
    expect((body.procedures as { code: string }[]).map((p) => p.code)).toEqual(['99285']);
    // Line 1: the 99285 entry's $75.00 ER copay (basis procedure). Line 2: service 30, deductible left $1,250.50, then 20% of 749.50 = 149.90.
    expect(body.estimate.lines.map((l) => [l.basis, l.patientOwes])).toEqual([
      ['procedure', '$75.00'],
      ['service', '$1,400.40'],
    ]);
  });

  it('runCobCheck still adds cob, after every r2 key', async () => {
    const outcome = await eligibilityRoute(runtime())(input({ ...garcia, runCobCheck: true, serviceTypeCodes: ['30', 'UC'] }));
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    const body = outcome.body as Record<string, unknown>;
    expect(Object.keys(body).slice(-4)).toEqual(['benefits', 'otherPayers', 'notices', 'cob']);
    expect(typeof (body.cob as { message?: string; cobCode?: string }).cobCode === 'string' || typeof (body.cob as { code?: string }).code === 'string').toBe(
      true,
    );
    expect((body.benefits as { serviceType: { code: string } }[]).slice(0, 2).map((b) => b.serviceType.code)).toEqual(['30', 'UC']);
  });
});

describe('COB route', () => {
  it('refuses a Medicare payer with 422 UNSUPPORTED_PAYER before calling Stedi', async () => {
    const before = sandbox.stats.cobCalls;
    const outcome = await cobRoute(runtime())(
      input({ patientFirstName: 'Harold', patientLastName: 'Brooks', dateOfCoverage: '03-01-2025', payerId: 'CMS', providerId: 'P-1' }),
    );
    expect(outcome.ok === false && outcome.error).toMatchObject({ status: 422, code: 'UNSUPPORTED_PAYER' });
    expect(sandbox.stats.cobCalls).toBe(before);
  });
});
