import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { clearinghouseFor } from '../support/clearinghouse.js';
import { checkCob } from '../../lib/cob/check.js';
import type { CobQuery } from '../../lib/cob/request.js';
import type { Enrollment } from '../../lib/enrollment/types.js';
import type { StediRetryTuning } from '../../lib/upstream/stedi.js';
import { startClearinghouseSandbox, type ClearinghouseSandbox } from '../../infra/dev/sandbox/clearinghouse.js';
import { SANDBOX_PATIENTS } from '../../infra/dev/sandbox/patients.js';

const KEY = 'cob-test-key';
const enrollment: Enrollment = { providerId: 'PROV-1', clientId: 'acme', npi: '1234567893', organizationName: 'ACME CLINIC', status: 'active' };

let sandbox: ClearinghouseSandbox;
beforeAll(async () => {
  // The slow patient answers long after any budget used here: only the budget can end that call.
  sandbox = await startClearinghouseSandbox({ apiKey: KEY, slowMs: 60_000 });
});
afterAll(() => sandbox.close());

/** COB sandbox patients (infra/dev/sandbox/cob-answers.ts) are on payer SANDBOX-PAYER-1. */
const cobPatient = (firstName: string, lastName: string, patientDOB: string, patientMemberId: string): CobQuery => ({
  patientFirstName: firstName,
  patientLastName: lastName,
  patientDOB,
  patientMemberId,
  dateOfCoverage: '03-01-2025',
  payerId: 'SANDBOX-PAYER-1',
});

/** The eligibility fault patients answer the COB endpoint with the same HTTP faults. */
function faultPatient(memberId: string): CobQuery {
  const p = SANDBOX_PATIENTS.find((x) => x.memberId === memberId)!;
  return {
    patientFirstName: p.firstName,
    patientLastName: p.lastName,
    patientDOB: p.dob,
    patientMemberId: p.memberId,
    dateOfCoverage: '03-01-2025',
    payerId: p.payerId,
  };
}

async function run(query: CobQuery, overrides: { apiKey?: string; budgetMs?: number; tuning?: StediRetryTuning } = {}) {
  const before = sandbox.stats.cobCalls;
  const outcome = await checkCob({
    query,
    enrollment,
    clearinghouse: clearinghouseFor(sandbox.url, 'apiKey' in overrides ? overrides.apiKey : KEY, {
      budgetMs: overrides.budgetMs ?? 5_000,
      retry: { delayMs: () => 20, ...overrides.tuning },
    }),
  });
  return { ...outcome, calls: sandbox.stats.cobCalls - before };
}

describe('checkCob against the sandbox clearinghouse', () => {
  it('200: maps the answer (MemberFoundNoCob → MemberFoundNoCOB) in one call', async () => {
    const { result, meta, calls } = await run(cobPatient('Maria', 'Garcia', '04-12-1979', 'SBX100001'));
    expect(calls).toBe(1);
    expect(meta).toMatchObject({ attempts: 1, aaaCodes: [], httpStatus: 200 });
    expect(result).toEqual({
      ok: true,
      value: {
        cobCode: 'MemberFoundNoCOB',
        requestedPlanBenefits: [
          {
            payerName: 'SANDBOX HEALTH PLAN',
            serviceTypeCodes: [
              { code: '30', name: 'Health Benefit Plan Coverage' },
              { code: '88', name: 'Pharmacy' },
            ],
            benefitDate: { planStartDate: '2025-01-01' },
          },
        ],
        additionalPlanBenefitInfo: [],
      },
    });
  });

  it('200: a determined secondary plan', async () => {
    const { result } = await run(cobPatient('Sofia', 'Rossi', '07-21-1983', 'SBX500005'));
    expect(result.ok && result.value.cobCode).toBe('CobInstanceExistsPrimacyDetermined');
    expect(result.ok && result.value.additionalPlanBenefitInfo[0]).toMatchObject({ payerName: 'UNITEDHEALTHCARE', payerPrimacy: 'SecondaryPayer' });
  });

  it('422: a Medicare payer is refused up front, without any call', async () => {
    const { result, meta, calls } = await run({ ...cobPatient('Harold', 'Brooks', '11-02-1950', '1EG4TE5MK73'), payerId: 'CMS' });
    expect(result).toMatchObject({ ok: false, error: { status: 422, code: 'UNSUPPORTED_PAYER' } });
    expect(calls).toBe(0);
    expect(meta.attempts).toBe(0);
  });

  it('422: AAA 75 (subscriber not found, HTTP 400) after exactly one call', async () => {
    const { result, meta, calls } = await run(cobPatient('Peter', 'Novak', '10-10-1975', 'SBX800008'));
    expect(result).toMatchObject({ ok: false, error: { status: 422, code: 'PAYER_REJECTED' } });
    expect(!result.ok && result.error.rejections?.map((r) => r.code)).toEqual(['75']);
    expect(calls).toBe(1);
    expect(meta).toMatchObject({ attempts: 1, aaaCodes: ['75'], httpStatus: 400 });
  });

  it('503: AAA 42 in the answer is retried exactly once', async () => {
    const { result, meta, calls } = await run(cobPatient('Hana', 'Sato', '05-05-1995', 'SBX900009'));
    expect(calls).toBe(2);
    expect(meta).toMatchObject({ attempts: 2, aaaCodes: ['42'] });
    expect(result).toMatchObject({ ok: false, error: { status: 503, code: 'PAYER_UNAVAILABLE' } });
  });

  it.each(['FLT429', 'FLT500'])('503: %s makes exactly 2 attempts', async (memberId) => {
    const { result, meta, calls } = await run(faultPatient(memberId));
    expect(calls).toBe(2);
    expect(meta.attempts).toBe(2);
    expect(result).toMatchObject({ ok: false, error: { status: 503, code: 'PAYER_UNAVAILABLE' } });
  });

  it('504: a slow clearinghouse is cut by an abort armed with the budget', async () => {
    // The clock stands still, so the abort must be armed with exactly the connection's budget.
    const armed: number[] = [];
    const timeoutSignal = (ms: number) => {
      armed.push(ms);
      return AbortSignal.timeout(ms);
    };
    const { result, calls } = await run(faultPatient('FLTSLOW'), { budgetMs: 300, tuning: { clock: { now: () => 0 }, timeoutSignal } });
    expect(armed).toEqual([300]);
    expect(result).toMatchObject({ ok: false, error: { status: 504, code: 'UPSTREAM_TIMEOUT' } });
    expect(calls).toBe(1);
  });

  it('502: malformed JSON after one call', async () => {
    const { result, calls } = await run(faultPatient('FLTJSON'));
    expect(result).toMatchObject({ ok: false, error: { status: 502, code: 'UPSTREAM_ERROR' } });
    expect(calls).toBe(1);
  });

  it('500: a refused key (401) and a missing key are CONFIGURATION_ERROR', async () => {
    const refused = await run(cobPatient('Maria', 'Garcia', '04-12-1979', 'SBX100001'), { apiKey: 'nope-secret' });
    expect(refused.result).toMatchObject({ ok: false, error: { status: 500, code: 'CONFIGURATION_ERROR' } });
    expect(JSON.stringify(refused.result)).not.toContain('nope-secret');
    expect(refused.calls).toBe(1);
    const missing = await run(cobPatient('Maria', 'Garcia', '04-12-1979', 'SBX100001'), { apiKey: undefined });
    expect(missing.result).toMatchObject({ ok: false, error: { code: 'CONFIGURATION_ERROR' } });
    expect(missing.calls).toBe(0);
  });
});
