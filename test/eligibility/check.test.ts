import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { clearinghouseFor } from '../support/clearinghouse.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkEligibility as checkFigures, type CheckEligibilityArgs } from '../../lib/eligibility/check.js';
import { presentSummary } from '../../lib/eligibility/present.js';
import type { Enrollment } from '../../lib/enrollment/types.js';
import type { StediRetryTuning } from '../../lib/upstream/stedi.js';
import { startClearinghouseSandbox, type ClearinghouseSandbox } from '../../infra/dev/sandbox/clearinghouse.js';
import { SANDBOX_PATIENTS } from '../../infra/dev/sandbox/patients.js';

const KEY = 'eligibility-test-key';
const enrollment: Enrollment = {
  providerId: 'PROV-1',
  clientId: 'acme',
  npi: '1234567893',
  organizationName: 'ACME CLINIC',
  status: 'active',
};

let sandbox: ClearinghouseSandbox;
beforeAll(async () => {
  // The slow patient answers long after any budget used here: only the budget can end that call.
  sandbox = await startClearinghouseSandbox({ apiKey: KEY, slowMs: 60_000 });
});
afterAll(() => sandbox.close());

function query(memberId: string): CheckEligibilityArgs['request'] {
  const p = SANDBOX_PATIENTS.find((x) => x.memberId === memberId);
  if (!p) throw new Error(memberId);
  return {
    patientFirstName: p.firstName,
    patientLastName: p.lastName,
    patientDOB: p.dob,
    patientMemberId: p.memberId,
    dateOfCoverage: '03-01-2025',
    payerId: p.payerId,
  };
}

/** checkEligibility with its answer's figures as the REST answer shows them. */
async function checkEligibility(args: CheckEligibilityArgs) {
  const outcome = await checkFigures(args);
  return outcome.result.ok ? { ...outcome, result: { ok: true as const, value: presentSummary(outcome.result.value) } } : outcome;
}

/** Runs one check against the sandbox and reports how many raw X12 calls reached it. */
async function check(memberId: string, overrides: { apiKey?: string; budgetMs?: number; baseUrl?: string; tuning?: StediRetryTuning } = {}) {
  const before = sandbox.stats.rawX12Calls;
  const outcome = await checkEligibility({
    request: query(memberId),
    enrollment,
    clearinghouse: clearinghouseFor(overrides.baseUrl ?? sandbox.url, 'apiKey' in overrides ? overrides.apiKey : KEY, {
      budgetMs: overrides.budgetMs ?? 5_000,
      retry: { delayMs: () => 20, ...overrides.tuning },
    }),
  });
  return { ...outcome, calls: sandbox.stats.rawX12Calls - before };
}

describe('checkEligibility against the sandbox clearinghouse', () => {
  it('200: an active PPO comes back as the benefit summary, in one call, with log metadata', async () => {
    const { result, meta, calls } = await check('PPO100001');
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.value.coverageStatus).toBe('Active');
      expect(result.value.payerName).toBe('SANDBOX HEALTH PPO');
      expect(result.value.inNetwork.individual).toEqual({
        copay: '$25.00',
        deductible: { total: '$1,500.00', remaining: '$1,250.50' },
        coinsurance: '20%',
        stopLoss: '$6,000.00',
        stopLossRemaining: '$4,200.00',
      });
      expect(result.value.outNetwork.family.deductible).toEqual({ total: '$6,000.00', remaining: '$5,550.00' });
    }
    expect(calls).toBe(1);
    expect(meta).toMatchObject({ attempts: 1, aaaCodes: [], httpStatus: 200 });
    expect(meta.traceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(meta.upstreamMs).toBeGreaterThanOrEqual(0);
    // Metadata is safe to log: no patient data in it.
    expect(JSON.stringify(meta)).not.toMatch(/GARCIA|Garcia|PPO100001|1985/);
  });

  it('200: requested service types and procedures reach the 270 and the answer; dateOfCoverage reaches the rules', async () => {
    const request = { ...query('PPO800008'), serviceTypeCodes: ['33', 'UC'], procedureCodes: ['97110'] };
    const sent: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (url: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
      sent.push(String(init?.body ?? ''));
      return realFetch(url, init);
    }) as typeof fetch;
    const before = new Date();
    try {
      const { result, checkedAt } = await checkEligibility({
        request,
        enrollment,
        clearinghouse: clearinghouseFor(sandbox.url, KEY),
      });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(sent.join('')).toContain('EQ*33~EQ*UC~EQ**HC:97110~');
      expect(result.value.benefits.slice(0, 2).map((b) => [b.serviceType.code, b.inNetwork.individual.copay])).toEqual([
        ['33', '$40.00'],
        ['UC', '$75.00'],
      ]);
      expect(result.value.procedures?.map((p) => p.code)).toEqual(['97110']);
      // Last year's $1,000 deductible row (DTP*292 2024) loses to the date of service 03-01-2025.
      expect(result.value.inNetwork.individual.deductible.total).toBe('$1,500.00');
      expect(checkedAt!.getTime()).toBeGreaterThanOrEqual(before.getTime());
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it('200: a person provider and a dependent (2000D) work too', async () => {
    const before = sandbox.stats.rawX12Calls;
    const { result } = await checkEligibility({
      request: query('FAM300003'),
      enrollment: { ...enrollment, organizationName: undefined, firstName: 'Ann', lastName: 'Lee' } as Enrollment,
      clearinghouse: clearinghouseFor(sandbox.url, KEY),
    });
    expect(sandbox.stats.rawX12Calls - before).toBe(1);
    expect(result.ok && result.value.inNetwork.individual.copay).toBe('$20.00');
  });

  it('200: Inactive coverage is a success with coverageStatus Inactive', async () => {
    const { result } = await check('INA400004');
    expect(result.ok && result.value.coverageStatus).toBe('Inactive');
  });

  it.each([
    ['ERR720072', '72'],
    ['ERR750075', '75'],
  ])('422: member %s is rejected (AAA %s) after exactly one call — data errors are never retried', async (memberId, code) => {
    const { result, meta, calls } = await check(memberId);
    expect(result).toMatchObject({ ok: false, error: { status: 422, code: 'PAYER_REJECTED' } });
    expect(!result.ok && result.error.rejections?.map((r) => r.code)).toEqual([code]);
    expect(calls).toBe(1);
    expect(meta).toMatchObject({ attempts: 1, aaaCodes: [code] });
  });

  it('422: an unknown patient is AAA 75', async () => {
    const before = sandbox.stats.rawX12Calls;
    const { result, meta } = await checkEligibility({
      request: { ...query('PPO100001'), patientMemberId: 'UNKNOWN1' },
      enrollment,
      clearinghouse: clearinghouseFor(sandbox.url, KEY),
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'PAYER_REJECTED' } });
    expect(meta.aaaCodes).toEqual(['75']);
    expect(sandbox.stats.rawX12Calls - before).toBe(1);
  });

  it('503: AAA 42 is retried exactly once, then PAYER_UNAVAILABLE with the rejection and Retry-After', async () => {
    const { result, meta, calls } = await check('ERR420042');
    expect(calls).toBe(2);
    expect(meta).toMatchObject({ attempts: 2, aaaCodes: ['42'] });
    expect(result).toMatchObject({ ok: false, error: { status: 503, code: 'PAYER_UNAVAILABLE' } });
    expect(!result.ok && result.error.retryAfterSeconds).toBeGreaterThan(0);
    expect(!result.ok && result.error.rejections?.[0]).toMatchObject({ code: '42', loop: '2100A' });
  });

  it.each(['FLT429', 'FLT500'])('503: %s (HTTP 429/500 every time) makes exactly 2 attempts', async (memberId) => {
    const { result, meta, calls } = await check(memberId);
    expect(calls).toBe(2);
    expect(meta.attempts).toBe(2);
    expect(result).toMatchObject({ ok: false, error: { status: 503, code: 'PAYER_UNAVAILABLE' } });
  });

  it('200: a 500 followed by a good answer succeeds on the retry', async () => {
    const { result, meta, calls } = await check('FLTFLAKY');
    expect(calls).toBe(2);
    expect(meta.attempts).toBe(2);
    expect(result.ok && result.value.inNetwork.family.stopLoss).toBe('$12,000.00');
  });

  it('504: a clearinghouse slower than the budget is cut off by an abort armed with the budget', async () => {
    // The clock stands still, so the abort must be armed with exactly the connection's budget.
    const armed: number[] = [];
    const timeoutSignal = (ms: number) => {
      armed.push(ms);
      return AbortSignal.timeout(ms);
    };
    const { result, meta, calls } = await check('FLTSLOW', { budgetMs: 400, tuning: { clock: { now: () => 0 }, timeoutSignal } });
    expect(armed).toEqual([400]);
    expect(result).toMatchObject({ ok: false, error: { status: 504, code: 'UPSTREAM_TIMEOUT' } });
    expect(calls).toBe(1);
    expect(meta.attempts).toBe(1);
  });

  it('504: a server that accepts and never answers', async () => {
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { result, meta } = await check('PPO100001', { baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, budgetMs: 300 });
      expect(result).toMatchObject({ ok: false, error: { code: 'UPSTREAM_TIMEOUT' } });
      expect(meta.attempts).toBe(1);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it.each([
    ['FLT999', 'a 999 reply'],
    ['FLTJSON', 'malformed JSON'],
    ['FLTTRUNC', 'a truncated 271'],
  ])('502: %s (%s) is UPSTREAM_ERROR after one call', async (memberId) => {
    const { result, meta, calls } = await check(memberId);
    expect(result).toMatchObject({ ok: false, error: { status: 502, code: 'UPSTREAM_ERROR' } });
    expect(calls).toBe(1);
    expect(meta.attempts).toBe(1);
  });

  it('500: a key the clearinghouse refuses (401) is CONFIGURATION_ERROR, never echoing the key', async () => {
    const { result, meta, calls } = await check('PPO100001', { apiKey: 'wrong-secret-value' });
    expect(result).toMatchObject({ ok: false, error: { status: 500, code: 'CONFIGURATION_ERROR' } });
    expect(JSON.stringify(result)).not.toContain('wrong-secret-value');
    expect(calls).toBe(1);
    expect(meta.httpStatus).toBe(401);
  });

  it('500: a missing key is CONFIGURATION_ERROR without any call', async () => {
    const { result, meta, calls } = await check('PPO100001', { apiKey: undefined });
    expect(result).toMatchObject({ ok: false, error: { status: 500, code: 'CONFIGURATION_ERROR' } });
    expect(calls).toBe(0);
    expect(meta.attempts).toBe(0);
  });

  it('each attempt sends a fresh 270 with its own control number', async () => {
    const seen: string[] = [];
    const spy: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push(JSON.parse(body).x12 as string);
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => spy.listen(0, '127.0.0.1', resolve));
    try {
      let n = 100;
      const { meta } = await checkEligibility({
        request: query('PPO100001'),
        enrollment,
        clearinghouse: clearinghouseFor(`http://127.0.0.1:${(spy.address() as AddressInfo).port}`, KEY, { retry: { delayMs: () => 5 } }),
        controlNumber: () => ++n,
      });
      expect(meta.attempts).toBe(2);
      expect(seen.map((x) => x.slice(90, 99))).toEqual(['000000101', '000000102']);
      expect(seen[0]).toContain('NM1*IL*1*GARCIA*MARIA****MI*PPO100001~DMG*D8*19850412~DTP*291*D8*20250301~EQ*30~');
      expect(seen[0]).toContain('NM1*1P*2*ACME CLINIC*****XX*1234567893~');
    } finally {
      spy.closeAllConnections();
      await new Promise((resolve) => spy.close(resolve));
    }
  });
});
