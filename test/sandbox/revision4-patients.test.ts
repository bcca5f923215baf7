import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { clearinghouseFor } from '../support/clearinghouse.js';
import { systemClock } from '../../lib/config/clock.js';
import { readConfig } from '../../lib/config/index.js';
import { eligibilityRoute } from '../../lib/eligibility/route.js';
import type { Enrollment, EnrollmentStore } from '../../lib/enrollment/types.js';
import type { Runtime } from '../../lib/runtime/index.js';
import { startClearinghouseSandbox } from '../../infra/dev/sandbox/clearinghouse.js';
import { SANDBOX_PATIENTS } from '../../infra/dev/sandbox/patients.js';

/**
 * The revision-4 sandbox patients (infra/dev/sandbox/patients-r4.ts), asked through the real eligibility
 * route and the production Stedi adapter, over loopback HTTP to the sandbox clearinghouse: each shows its
 * rule's visible effect (docs/eligibility.md#revision-4-figures-a-biller-would-quote).
 */

const ENROLLED: Enrollment = { providerId: 'P-1', clientId: 'acme', npi: '1234567893', organizationName: 'Clinic', status: 'active' };
const store: EnrollmentStore = { get: async (id) => (id === ENROLLED.providerId ? ENROLLED : undefined), put: async () => undefined };

let sandbox: Awaited<ReturnType<typeof startClearinghouseSandbox>>;
beforeAll(async () => {
  sandbox = await startClearinghouseSandbox({ apiKey: 'k' });
});
afterAll(async () => {
  await sandbox?.close();
});

const runtime = (): Runtime => ({
  config: { ...readConfig({}), stediBaseUrl: sandbox.url },
  enrollments: async () => store,
  clearinghouse: clearinghouseFor(sandbox.url, 'k'),
  clock: systemClock,
});

interface Answer {
  coverageStatus: string;
  inNetwork: { individual: { copay: string; coinsurance: string } };
  plan?: { scope?: string; name?: string };
  subscriber?: { dateOfDeath?: string };
  notices: { code: string; message: string }[];
  estimate?: {
    lines: {
      serviceTypeCode: string;
      serviceTypeSource: string;
      copay: string;
      deductible: string;
      coinsurance: string;
      patientOwes: string;
      planPays: string;
      missing?: string[];
    }[];
    patientOwes: string;
    planPays: string;
    complete: boolean;
  };
}

/** Asks the route about the sandbox patient with this member id, on 03-01-2025, with `extra` request fields. */
async function check(memberId: string, extra: Record<string, unknown> = {}): Promise<Answer> {
  const p = SANDBOX_PATIENTS.find((patient) => patient.memberId === memberId);
  if (!p) throw new Error(`no sandbox patient ${memberId}`);
  const body = {
    patientFirstName: p.firstName,
    patientLastName: p.lastName,
    patientDOB: p.dob,
    patientMemberId: p.memberId,
    dateOfCoverage: '03-01-2025',
    payerId: p.payerId,
    providerId: 'P-1',
    ...extra,
  };
  const outcome = await eligibilityRoute(runtime())({ body, clientId: 'acme', requestId: 'r-4' });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
  return outcome.body as Answer;
}

const codes = (answer: Answer) => answer.notices.map((n) => n.code);

describe('revision-4 sandbox patients through the eligibility route', () => {
  it('Ivy Morgan: a $0 office copay beside 20% coinsurance; a 99213 line charges the coinsurance, not $0', async () => {
    const answer = await check('PPO160016', { estimate: { lines: [{ procedureCode: '99213', amount: 150 }] } });
    // Office visit (98, by the crosswalk): copay $0.00 with 20% coinsurance, deductible met ($0.00 left),
    // out-of-pocket $2,500.00 left. $150 × 20% = $30.00 owed, $120.00 paid by the plan.
    expect(answer.estimate!.lines).toEqual([
      expect.objectContaining({
        serviceTypeCode: '98',
        serviceTypeSource: 'crosswalk',
        copay: '$0.00',
        deductible: '$0.00',
        coinsurance: '$30.00',
        patientOwes: '$30.00',
        planPays: '$120.00',
      }),
    ]);
    expect(answer.estimate!.lines[0]!.missing).toBeUndefined();
    expect([answer.estimate!.patientOwes, answer.estimate!.planPays, answer.estimate!.complete]).toEqual(['$30.00', '$120.00', true]);
  });

  it('Leo Foster: family-only HSA; FAMILY_LEVEL_ONLY and an estimate on the family remainings', async () => {
    const answer = await check('HSA170017', { estimate: { lines: [{ amount: 5000 }] } });
    expect(codes(answer)).toContain('FAMILY_LEVEL_ONLY');
    // Individual remainings are N/A; the family's stand in: deductible $4,000.00 left, then 20% of the other
    // $1,000.00 = $200.00; $4,200.00 owed is within the family out-of-pocket left ($4,500.00).
    expect(answer.estimate!.lines[0]).toMatchObject({ deductible: '$4,000.00', coinsurance: '$200.00', patientOwes: '$4,200.00', planPays: '$800.00' });
    expect(answer.estimate!.lines[0]!.missing).toBeUndefined();
    expect(answer.estimate!.complete).toBe(true);
    // A second line meets the family out-of-pocket: only $300.00 of it is left to owe.
    const twoLines = await check('HSA170017', { estimate: { lines: [{ amount: 5000 }, { amount: 5000 }] } });
    expect(twoLines.estimate!.lines.map((l) => l.patientOwes)).toEqual(['$4,200.00', '$300.00']);
  });

  it('Mia Santos: a dental-only plan; plan.scope "dental" and a PLAN_SCOPE notice', async () => {
    const answer = await check('DEN180018');
    expect(answer.coverageStatus).toBe('Active');
    expect(answer.plan?.scope).toBe('dental');
    expect(answer.notices).toContainEqual({
      code: 'PLAN_SCOPE',
      message: expect.stringMatching(/dental-only plan; medical services are not covered by it/),
    });
    expect(answer.inNetwork.individual.coinsurance).toBe('20%');
  });

  it('Noel Bennett: an HMO with a primary care provider on file; PCP_ON_FILE names the PCP and NPI', async () => {
    const answer = await check('HMO190019');
    expect(answer.notices).toContainEqual({ code: 'PCP_ON_FILE', message: expect.stringContaining('MARCUS WELBY, NPI 1245319599') });
  });

  it('Arthur Cole: a deceased subscriber; dateOfDeath, PATIENT_DECEASED and Inactive on a later date of service', async () => {
    const answer = await check('PPO210021');
    expect(answer.subscriber?.dateOfDeath).toBe('2025-01-15');
    expect(codes(answer)).toContain('PATIENT_DECEASED');
    expect(answer.coverageStatus).toBe('Inactive');
    // Asked for a date before the death, the coverage is active.
    const before = await check('PPO210021', { dateOfCoverage: '01-10-2025' });
    expect(before.coverageStatus).toBe('Active');
    expect(codes(before)).toContain('PATIENT_DECEASED');
  });
});
