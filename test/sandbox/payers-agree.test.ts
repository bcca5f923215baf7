import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { COB_SANDBOX_PATIENTS } from '../../infra/dev/sandbox/cob-answers.js';
import { SANDBOX_PAYERS } from '../../infra/dev/sandbox/payer-list.js';
import { sandboxPayerSearch } from '../../infra/dev/sandbox/payers.js';
import { SANDBOX_PATIENTS } from '../../infra/dev/sandbox/patients.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';

/**
 * The sandboxes agree (docs/api.md#sandboxes): every payer id the sandbox clearinghouse answers for
 * (read from its own patients, eligibility and COB) is in the sandbox payer directory, by id and by
 * the name its answers give, so "search a payer, take its id, check eligibility" works offline.
 */

const answered = [...new Set([...SANDBOX_PATIENTS, ...COB_SANDBOX_PATIENTS].map((patient) => patient.payerId))].sort();
const namesOf = (payerId: string) => [...new Set(SANDBOX_PATIENTS.filter((p) => p.payerId === payerId && p.payerName).map((p) => p.payerName!))];
const firstHit = (query: string) =>
  (sandboxPayerSearch(new URLSearchParams({ query })).body as { items: Array<{ payer: { primaryPayerId: string } }> }).items[0]?.payer.primaryPayerId;

describe('the sandbox clearinghouse and the sandbox payer directory', () => {
  it('answer for the documented test payers (the list is read from the sandbox, not copied)', () => {
    expect(answered).toEqual(expect.arrayContaining(['SANDBOX-PAYER-1', 'SBXHMO', 'SBXPPO']));
  });

  it.each(answered)('payer %s is in the directory, found first by its id', (payerId) => {
    expect(SANDBOX_PAYERS.find((row) => row.payerId === payerId)).toBeDefined();
    expect(firstHit(payerId)).toBe(payerId);
  });

  it.each(answered)('payer %s is found first by its directory name and by the name its answers give', (payerId) => {
    const row = SANDBOX_PAYERS.find((r) => r.payerId === payerId);
    expect(row).toBeDefined();
    expect(firstHit(row!.name)).toBe(payerId);
    for (const name of namesOf(payerId)) expect(firstHit(name)).toBe(payerId);
  });
});

describe('search a payer, take its id, check eligibility (loopback, as npm start serves it)', () => {
  let api: LocalApi;
  beforeAll(async () => {
    api = await startLocalApi();
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  it('finds "Sandbox Health PPO" and checks Maria Garcia with the id it gave', async () => {
    const search = await api.call('/api/payers?q=sandbox%20health%20ppo&transaction=eligibility', undefined, { method: 'GET' });
    expect(search.status).toBe(200);
    const payerId = search.body.payers[0]?.payerId;
    expect(payerId).toBe('SBXPPO');
    const check = await api.call('/api/eligibility/v1', {
      patientFirstName: 'Maria',
      patientLastName: 'Garcia',
      patientDOB: '04-12-1985',
      patientMemberId: 'PPO100001',
      dateOfCoverage: '03-01-2025',
      payerId,
      providerId: 'PROVIDER-SANDBOX-1',
    });
    expect([check.status, check.body.coverageStatus, check.body.payerName]).toEqual([200, 'Active', 'SANDBOX HEALTH PPO']);
  });

  it('finds the COB test payer by name and checks COB with its id', async () => {
    const search = await api.call('/api/payers?q=sandbox%20payer&transaction=cob', undefined, { method: 'GET' });
    const payerId = search.body.payers.map((p: { payerId: string }) => p.payerId).find((id: string) => id === 'SANDBOX-PAYER-1');
    expect(payerId).toBe('SANDBOX-PAYER-1');
    const cob = await api.call('/api/eligibility/cob/v1', {
      patientFirstName: 'Sofia',
      patientLastName: 'Rossi',
      patientDOB: '07-21-1983',
      patientMemberId: 'SBX500005',
      dateOfCoverage: '03-01-2025',
      payerId,
      providerId: 'PROVIDER-SANDBOX-1',
    });
    expect(cob.status).toBe(200);
  });
});
