import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SANDBOX_PATIENTS, type SandboxPatient } from '../../infra/dev/sandbox/patients.js';
import { onDateOfService, planYear } from '../../infra/dev/sandbox/plan-year.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';

/**
 * The sandbox payers answer per plan year (docs/api.md#sandboxes): inside it the plan's figures, outside
 * it the payer's usual answer (the PPO and Medicare: inactive coverage with the plan's dates; the HMO:
 * AAA 62). Checked through the whole service, as an integrator sees it, and on the rule itself.
 */

const byMember = (memberId: string): SandboxPatient => {
  const patient = SANDBOX_PATIENTS.find((p) => p.memberId === memberId);
  if (!patient) throw new Error(`no sandbox patient ${memberId}`);
  return patient;
};
const GARCIA = byMember('PPO100001');
const CHEN = byMember('HMO200002');
const PATEL = byMember('FAM300003');
const ALVAREZ = byMember('2WX7YT9QA21');

const bodyFor = (p: SandboxPatient, dateOfCoverage: string) => ({
  patientFirstName: p.firstName,
  patientLastName: p.lastName,
  patientDOB: p.dob,
  patientMemberId: p.memberId,
  dateOfCoverage,
  payerId: p.payerId,
  providerId: 'PROVIDER-SANDBOX-1',
});

describe('the plan year of a sandbox patient', () => {
  it('runs twelve months from plan begin for the commercial payers, to plan end when given, and is the calendar year for Medicare', () => {
    expect(planYear(GARCIA)).toEqual({ begin: '20250101', end: '20251231' });
    expect(planYear({ ...GARCIA, planBegin: '20250701' })).toEqual({ begin: '20250701', end: '20260630' });
    expect(planYear({ ...GARCIA, planBegin: '20240229' })).toEqual({ begin: '20240229', end: '20250228' });
    expect(planYear({ ...GARCIA, planEnd: '20250630' })).toEqual({ begin: '20250101', end: '20250630' });
    // Entitled since 2013: the benefit period is 2025; entitled mid-2025: from that date.
    expect(planYear(ALVAREZ)).toEqual({ begin: '20250101', end: '20251231' });
    expect(planYear({ ...ALVAREZ, planBegin: '20250601' })).toEqual({ begin: '20250601', end: '20251231' });
  });

  it('leaves the patient as is inside it, and for rejections, faults and coverage already inactive', () => {
    expect(onDateOfService(GARCIA, '20250101')).toBe(GARCIA);
    expect(onDateOfService(GARCIA, '20251231')).toBe(GARCIA);
    expect(onDateOfService(GARCIA, undefined)).toBe(GARCIA);
    for (const patient of SANDBOX_PATIENTS.filter((p) => p.fault || p.aaa || !p.benefits?.some((row) => row.info === '1'))) {
      expect([patient.memberId, onDateOfService(patient, '19990101')]).toEqual([patient.memberId, patient]);
    }
  });

  it('answers every in-plan patient of the table unchanged on 2025-03-01, the date the golden replies are recorded for', () => {
    for (const patient of SANDBOX_PATIENTS) expect([patient.memberId, onDateOfService(patient, '20250301')]).toEqual([patient.memberId, patient]);
  });
});

describe('eligibility over the local API, per plan year', () => {
  let api: LocalApi;
  beforeAll(async () => {
    api = await startLocalApi();
  }, 30_000);
  afterAll(async () => {
    await api?.close();
  });

  it("the PPO: active with the figures inside the plan year, inactive with the plan's dates on either side of it", async () => {
    const inside = await api.call('/api/eligibility/v1', bodyFor(GARCIA, '12-31-2025'));
    expect([inside.status, inside.body.coverageStatus, inside.body.inNetwork.individual.copay]).toEqual([200, 'Active', '$25.00']);
    for (const date of ['01-01-2026', '12-31-2024']) {
      const outside = await api.call('/api/eligibility/v1', bodyFor(GARCIA, date));
      expect([date, outside.status, outside.body.coverageStatus]).toEqual([date, 200, 'Inactive']);
      expect(outside.body.plan).toMatchObject({ planBegin: '2025-01-01', planEnd: '2025-12-31' });
      expect(outside.body.inNetwork.individual).toEqual({
        copay: 'N/A',
        deductible: { total: 'N/A', remaining: 'N/A' },
        coinsurance: 'N/A',
        stopLoss: 'N/A',
        stopLossRemaining: 'N/A',
      });
      expect(outside.body.benefits[0]).toMatchObject({
        serviceType: { code: '30' },
        status: 'Inactive',
        messages: ['COVERAGE NOT IN EFFECT ON THE DATE OF SERVICE'],
      });
    }
  });

  it('a dependent outside the plan year: inactive in her own loop, still named as the dependent', async () => {
    const outside = await api.call('/api/eligibility/v1', bodyFor(PATEL, '02-01-2026'));
    expect([outside.status, outside.body.coverageStatus]).toEqual([200, 'Inactive']);
    expect(outside.body.dependent).toMatchObject({ firstName: 'LILY', lastName: 'PATEL', relationship: 'child' });
  });

  it('the HMO rejects a date outside the plan year with AAA 62 (422 PAYER_REJECTED)', async () => {
    expect((await api.call('/api/eligibility/v1', bodyFor(CHEN, '06-01-2025'))).status).toBe(200);
    const outside = await api.call('/api/eligibility/v1', bodyFor(CHEN, '06-01-2026'));
    expect(outside.status).toBe(422);
    expect(outside.body).toMatchObject({
      code: 'PAYER_REJECTED',
      rejections: [{ code: '62', description: 'Date of Service Not Within Allowable Inquiry Period', loop: '2100C' }],
    });
  });

  it('Medicare: the 2025 benefit period answers, 2024 is inactive', async () => {
    expect((await api.call('/api/eligibility/v1', bodyFor(ALVAREZ, '03-01-2025'))).body.coverageStatus).toBe('Active');
    const before = await api.call('/api/eligibility/v1', bodyFor(ALVAREZ, '12-15-2024'));
    expect([before.status, before.body.coverageStatus, before.body.plan.planBegin]).toEqual([200, 'Inactive', '2025-01-01']);
  });
});
