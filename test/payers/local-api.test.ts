import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLocalApi, type LocalApi } from '../support/local-api.js';

/** GET /api/payers and GET /api/payers/{payerId} through the local server, as `npm start` serves them. */

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
}, 60_000);
afterAll(async () => {
  await api?.close();
});

const get = (path: string, init: { token?: string | null } = {}) => api.call(path, undefined, { method: 'GET', ...init });

describe('payer directory routes', () => {
  it('searches typo-tolerantly and answers the documented shape', async () => {
    const answer = await get('/api/payers?q=Aetan&pageSize=2');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body.payers[0]).toEqual({
      payerId: '60054',
      name: 'Aetna',
      aliases: ['60054'],
      coverageTypes: ['medical', 'dental'],
      states: [],
      transactions: { eligibility: 'SUPPORTED', cob: 'SUPPORTED' },
    });
    expect(answer.body.payers).toHaveLength(2);
    expect(typeof answer.body.nextPageToken).toBe('string');
  });

  it('pages with nextPageToken and filters by transaction', async () => {
    const first = await get('/api/payers?q=delta%20dental&transaction=eligibility&pageSize=5');
    const second = await get(`/api/payers?q=delta%20dental&transaction=eligibility&pageSize=5&pageToken=${encodeURIComponent(first.body.nextPageToken)}`);
    const names = [...first.body.payers, ...second.body.payers].map((p: { payerId: string }) => p.payerId);
    expect(new Set(names).size).toBe(10);
    expect(names).not.toContain('54097');
    for (const payer of [...first.body.payers, ...second.body.payers]) expect(payer.transactions.eligibility).not.toBe('NOT_SUPPORTED');
  });

  it('looks one payer up by primary id, alias or Stedi id; 404 when none has it', async () => {
    expect((await get('/api/payers/87726')).body).toMatchObject({ payerId: '87726', name: 'UnitedHealthcare', stediId: 'KMQTZ' });
    expect((await get('/api/payers/TXBCBS')).body.payerId).toBe('84980');
    expect((await get('/api/payers/JDNSN')).body.payerId).toBe('CMS');
    const missing = await get('/api/payers/NO-SUCH-PAYER');
    expect([missing.status, missing.body.code, missing.body.message]).toEqual([404, 'NOT_FOUND', 'No payer in the directory has the id NO-SUCH-PAYER']);
  });

  it('refuses bad parameters with every problem listed', async () => {
    const answer = await get('/api/payers?pageSize=500&transaction=claims');
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: { field: string }) => e.field)).toEqual(['transaction', 'pageSize']);
  });

  it('needs the bearer token, and answers POST with 405', async () => {
    expect((await get('/api/payers?q=aetna', { token: null })).body).toEqual({ message: 'Unauthorized' });
    const post = await api.call('/api/payers', {});
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET']);
  });
});
