import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SANDBOX_PATIENTS } from '../../infra/dev/sandbox/patients.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';

/**
 * `runCobCheck: true` on every eligibility sandbox patient that answers benefits, through the local API:
 * the COB sandbox knows each of them (infra/dev/sandbox/cob-answers.ts), so the answer's `cob` is a COB
 * result, never "subscriber not found". Medicare is refused before any call (Stedi's COB check does not cover it).
 */

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
}, 30_000);
afterAll(async () => {
  await api?.close();
});

const answering = SANDBOX_PATIENTS.filter((p) => !p.fault && !p.aaa);

describe('runCobCheck on the eligibility sandbox patients', () => {
  it.each(answering.map((p) => [`${p.firstName} ${p.lastName}`, p] as const))('%s', async (_name, p) => {
    const reply = await api.call('/api/eligibility/v1', {
      patientFirstName: p.firstName,
      patientLastName: p.lastName,
      patientDOB: p.dob,
      patientMemberId: p.memberId,
      dateOfCoverage: '03-01-2025',
      payerId: p.payerId,
      providerId: 'PROVIDER-SANDBOX-1',
      runCobCheck: true,
    });
    expect(reply.status).toBe(200);
    if (p.payerId === 'CMS') expect(reply.body.cob).toMatchObject({ code: 'UNSUPPORTED_PAYER' });
    else expect(reply.body.cob).toMatchObject({ cobCode: expect.any(String), requestedPlanBenefits: [expect.anything()] });
  });
});
