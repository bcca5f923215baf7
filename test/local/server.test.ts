import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLocalApi, type LocalApi } from '../support/local-api.js';
import { MOCK_SET_1, SANDBOX_GARCIA } from '../support/events.js';

/** The local API Gateway stand-in, driven over real HTTP on an ephemeral port. */

const ELIGIBILITY = '/api/eligibility/v1';
const COB = '/api/eligibility/cob/v1';
const garcia = SANDBOX_GARCIA;

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => {
  await api?.close();
});

describe('authorization, as API Gateway answers it', () => {
  it('401 with the exact body when the Authorization header is missing', async () => {
    const reply = await api.call(ELIGIBILITY, MOCK_SET_1, { token: null });
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ message: 'Unauthorized' });
    expect(reply.headers.get('x-request-id')).toBeTruthy();
  });

  it.each([
    ['an unknown token', 'nobody-knows-this-token'],
    ['a malformed token', '\u00e9\u00e9'],
  ])('403 with the exact body for %s', async (_label, token) => {
    const reply = await api.call(ELIGIBILITY, MOCK_SET_1, { token });
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({ message: 'Forbidden' });
  });
});

describe('routing', () => {
  it('404 NOT_FOUND for an unknown path, after authorization, with a hint for a trailing slash', async () => {
    const unknown = await api.call('/api/eligibility/v2', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'NOT_FOUND', requestId: unknown.headers.get('x-request-id') });
    expect((await api.call('/nope', {}, { token: null })).status).toBe(401);
    const slash = await api.call(`${ELIGIBILITY}/`, MOCK_SET_1);
    expect(slash.status).toBe(404);
    expect(slash.body.message).toContain(`did you mean ${ELIGIBILITY}?`);
  });

  it('405 METHOD_NOT_ALLOWED with Allow for a known path and another method, without authentication', async () => {
    const wrongMethod = await api.call(ELIGIBILITY, undefined, { method: 'GET', token: null });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect(wrongMethod.body).toMatchObject({ code: 'METHOD_NOT_ALLOWED', requestId: wrongMethod.headers.get('x-request-id') });
    const deleteHealth = await api.call('/api/health', undefined, { method: 'DELETE' });
    expect([deleteHealth.status, deleteHealth.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('HEAD /api/health answers like GET without a token: same status and headers, no body', async () => {
    const get = await api.call('/api/health', undefined, { method: 'GET', token: null, headers: { 'X-Request-Id': 'probe-1' } });
    const head = await api.call('/api/health', undefined, { method: 'HEAD', token: null, headers: { 'X-Request-Id': 'probe-1' } });
    expect([head.status, head.body]).toEqual([200, undefined]);
    for (const name of ['content-type', 'cache-control', 'x-request-id']) expect([name, head.headers.get(name)]).toEqual([name, get.headers.get(name)]);
    expect(get.body).toMatchObject({ status: 'ok' });
  });

  it('takes lowercase service type and procedure codes and asks the payer about them upper-cased', async () => {
    const reply = await api.call(ELIGIBILITY, { ...garcia, serviceTypeCodes: ['30', 'al'], procedureCodes: ['d0120'] });
    expect(reply.status).toBe(200);
    expect(reply.body.benefits.map((b: { serviceType: { code: string } }) => b.serviceType.code).slice(0, 2)).toEqual(['30', 'AL']);
    expect(reply.body.procedures.map((p: { code: string }) => p.code)).toEqual(['D0120']);
  });

  it('415 for a non-JSON content type and 400 INVALID_JSON for a broken body', async () => {
    expect((await api.call(ELIGIBILITY, MOCK_SET_1, { contentType: 'text/plain' })).body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const broken = await api.call(ELIGIBILITY, undefined, { rawBody: '{"patientFirstName":' });
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe('INVALID_JSON');
  });

  it('413 PAYLOAD_TOO_LARGE above the 6 MiB Lambda payload limit', async () => {
    const reply = await api.call('/api/generate-letter', undefined, { rawBody: `{"file_content":"${'A'.repeat(6 * 1024 * 1024)}"}` });
    expect(reply.status).toBe(413);
    expect(reply.body.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('mock eligibility over HTTP', () => {
  it('set 1 answers 200 with the mock message', async () => {
    const reply = await api.call(ELIGIBILITY, MOCK_SET_1);
    expect(reply.status).toBe(200);
    expect(reply.body.message).toBe('Mock Eligibility check successful.');
    expect(reply.body.inNetwork.individual.copay).toBe('$20.00');
  });

  it('set 4 answers 502 and a non-match 500, both exact', async () => {
    const set4 = {
      patientFirstName: 'Emily',
      patientLastName: 'Davis',
      patientDOB: '04-04-1990',
      patientMemberId: 'MBR4004004',
      dateOfCoverage: '04-01-2025',
      payerId: 'PAYER004',
      providerId: 'PROVIDER004',
      mockRequest: true,
    };
    const four = await api.call(ELIGIBILITY, set4);
    expect([four.status, four.body]).toEqual([502, { message: 'Mock: Error retrieving eligibility data.' }]);
    const none = await api.call(ELIGIBILITY, { ...MOCK_SET_1, patientLastName: 'doe' });
    expect([none.status, none.body]).toEqual([500, { message: 'Mock request not found' }]);
  });

  it('mock COB answers the fixed COB of set 2', async () => {
    const {
      patientDOB: _d,
      patientMemberId: _m,
      ...rest
    } = { ...MOCK_SET_1, patientFirstName: 'Jane', patientLastName: 'Smith', dateOfCoverage: '02-02-2025', payerId: 'PAYER002', providerId: 'PROVIDER002' };
    const reply = await api.call(COB, rest);
    expect(reply.status).toBe(200);
    expect(reply.body.cobCode).toBe('CobInstanceExistsPrimacyDetermined');
  });
});

describe('real eligibility against the sandbox clearinghouse', () => {
  it('an enrolled provider gets the parsed 271', async () => {
    const reply = await api.call(ELIGIBILITY, garcia);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ message: 'Eligibility check successful', coverageStatus: 'Active', payerName: 'SANDBOX HEALTH PPO' });
    expect(reply.body.inNetwork.individual.copay).toMatch(/^\$\d/);
  });

  it("403 PROVIDER_NOT_ENROLLED, with the same body, for another client's, an inactive, an unknown or a payer-restricted provider", async () => {
    const bodies = [];
    for (const providerId of ['PROVIDER-OTHER-CLIENT', 'PROVIDER-SANDBOX-INACTIVE', 'NO-SUCH-PROVIDER', 'PROVIDER-SANDBOX-2']) {
      const reply = await api.call(ELIGIBILITY, { ...garcia, providerId });
      expect(reply.status).toBe(403);
      const { requestId: _r, ...rest } = reply.body;
      bodies.push(rest);
    }
    expect(bodies[0].code).toBe('PROVIDER_NOT_ENROLLED');
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
  });

  it('422 PAYER_REJECTED with rejections for a patient the payer does not know', async () => {
    const reply = await api.call(ELIGIBILITY, { ...garcia, patientMemberId: 'NOPE000' });
    expect(reply.status).toBe(422);
    expect(reply.body.code).toBe('PAYER_REJECTED');
    expect(reply.body.rejections[0]).toMatchObject({ code: '75', loop: expect.stringMatching(/^2[01]00[A-D]$/) });
  });

  it('runCobCheck adds the COB result to the eligibility answer', async () => {
    const reply = await api.call(ELIGIBILITY, { ...garcia, runCobCheck: true });
    expect(reply.status).toBe(200);
    expect(reply.body.message).toBe('Eligibility check successful');
    expect(reply.body.cob).toMatchObject({ cobCode: 'MemberFoundNoCOB', additionalPlanBenefitInfo: [] });
  });

  it('a failing COB part is reported inside cob and never fails eligibility', async () => {
    // The COB sandbox knows every eligibility patient; Medicare's COB check is refused (Stedi's does not cover it).
    const brooks = {
      ...garcia,
      patientFirstName: 'Harold',
      patientLastName: 'Brooks',
      patientDOB: '11-02-1950',
      patientMemberId: '1EG4TE5MK73',
      payerId: 'CMS',
      runCobCheck: true,
    };
    const reply = await api.call(ELIGIBILITY, brooks);
    expect(reply.status).toBe(200);
    expect(reply.body.coverageStatus).toBe('Active');
    expect(reply.body.cob).toEqual({ message: expect.any(String), code: 'UNSUPPORTED_PAYER' });
  });

  it('real COB returns the mapped Stedi answer', async () => {
    const reply = await api.call(COB, {
      patientFirstName: 'Sofia',
      patientLastName: 'Rossi',
      dateOfCoverage: '03-01-2025',
      payerId: 'SANDBOX-PAYER-1',
      providerId: 'PROVIDER-SANDBOX-1',
      patientDOB: '07-21-1983',
      patientMemberId: 'SBX500005',
    });
    expect(reply.status).toBe(200);
    expect(reply.body.cobCode).toBe('CobInstanceExistsPrimacyDetermined');
  });
});
