import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { startLocalApi, type LocalApi } from '../support/local-api.js';
import { MOCK_SET_1 } from '../support/events.js';

/** Health, the OpenAPI document, CORS and caller request ids, over HTTP against the local server. */

const ELIGIBILITY = '/api/eligibility/v1';
const ALLOWED = 'https://app.example.org';
const packageVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => {
  await api?.close();
});
afterEach(() => {
  delete process.env.CORS_ALLOWED_ORIGINS;
});

describe('unauthenticated routes', () => {
  it('GET /api/health answers the package version without a token', async () => {
    const reply = await api.call('/api/health', undefined, { method: 'GET', token: null });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ok', version: packageVersion });
    expect(reply.headers.get('x-request-id')).toBeTruthy();
  });

  it('GET /api/openapi.json serves the committed document', async () => {
    const reply = await api.call('/api/openapi.json', undefined, { method: 'GET', token: null });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')));
    expect(reply.body.openapi).toBe('3.1.0');
  });
});

describe('X-Request-Id', () => {
  it('echoes a valid caller id in the header and the error body', async () => {
    const reply = await api.call(ELIGIBILITY, { ...MOCK_SET_1, patientDOB: 'yesterday' }, { headers: { 'X-Request-Id': 'abc-123' } });
    expect(reply.status).toBe(400);
    expect(reply.headers.get('x-request-id')).toBe('abc-123');
    expect(reply.body.requestId).toBe('abc-123');
  });

  it('echoes it on successes, the gateway-style 401, 404, 405 and health', async () => {
    const id = 'trace:2026-11-23.A_b';
    const headers = { 'x-request-id': id };
    expect((await api.call(ELIGIBILITY, MOCK_SET_1, { headers })).headers.get('x-request-id')).toBe(id);
    expect((await api.call(ELIGIBILITY, MOCK_SET_1, { headers, token: null })).headers.get('x-request-id')).toBe(id);
    expect((await api.call('/nope', {}, { headers })).headers.get('x-request-id')).toBe(id);
    expect((await api.call(ELIGIBILITY, undefined, { headers, method: 'GET' })).headers.get('x-request-id')).toBe(id);
    expect((await api.call('/api/health', undefined, { headers, method: 'GET' })).headers.get('x-request-id')).toBe(id);
  });

  it.each([
    ['129 characters', 'a'.repeat(129)],
    ['a space', 'abc 123'],
    ['a slash', 'a/b'],
    ['a quote', 'a"b'],
    ['a semicolon', 'a;b'],
  ])('ignores an id with %s and makes its own', async (_label, id) => {
    const reply = await api.call(ELIGIBILITY, MOCK_SET_1, { headers: { 'x-request-id': id } });
    expect(reply.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

describe('CORS', () => {
  const preflight = (origin: string, path = ELIGIBILITY) =>
    api.call(path, undefined, {
      method: 'OPTIONS',
      token: null,
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });

  it('is off by default: OPTIONS is a 405 and responses carry no CORS headers', async () => {
    const reply = await preflight(ALLOWED);
    expect(reply.status).toBe(405);
    expect(reply.headers.get('access-control-allow-origin')).toBeNull();
    const call = await api.call(ELIGIBILITY, MOCK_SET_1, { headers: { origin: ALLOWED } });
    expect(call.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a preflight from an allowed origin 204 with the CORS headers, without a token', async () => {
    process.env.CORS_ALLOWED_ORIGINS = `https://other.example.org, ${ALLOWED}`;
    const reply = await preflight(ALLOWED);
    expect(reply.status).toBe(204);
    expect(reply.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(reply.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(reply.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, Idempotency-Key, X-Request-Id');
    expect(reply.headers.get('vary')).toBe('Origin');
  });

  it('gives another origin no CORS headers at all', async () => {
    process.env.CORS_ALLOWED_ORIGINS = ALLOWED;
    const reply = await preflight('https://evil.example.com');
    expect(reply.status).toBe(204);
    for (const name of ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers'])
      expect(reply.headers.get(name)).toBeNull();
    const call = await api.call(ELIGIBILITY, MOCK_SET_1, { headers: { origin: 'https://evil.example.com' } });
    expect(call.status).toBe(200);
    expect(call.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('adds Access-Control-Allow-Origin to answers, errors and the gateway-style 401 for an allowed origin', async () => {
    process.env.CORS_ALLOWED_ORIGINS = ALLOWED;
    const headers = { origin: ALLOWED };
    const ok = await api.call(ELIGIBILITY, MOCK_SET_1, { headers });
    expect([ok.status, ok.headers.get('access-control-allow-origin')]).toEqual([200, ALLOWED]);
    expect(ok.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    const invalid = await api.call(ELIGIBILITY, { ...MOCK_SET_1, extra: 1 }, { headers });
    expect([invalid.status, invalid.headers.get('access-control-allow-origin')]).toEqual([400, ALLOWED]);
    const unauthorized = await api.call(ELIGIBILITY, MOCK_SET_1, { headers, token: null });
    expect([unauthorized.status, unauthorized.headers.get('access-control-allow-origin')]).toEqual([401, ALLOWED]);
    const health = await api.call('/api/health', undefined, { headers, method: 'GET' });
    expect(health.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('with CORS on, a wrong method still gets 405 and Allow names OPTIONS too', async () => {
    process.env.CORS_ALLOWED_ORIGINS = ALLOWED;
    const reply = await api.call(ELIGIBILITY, undefined, { method: 'GET', token: null });
    expect([reply.status, reply.headers.get('allow')]).toEqual([405, 'POST, OPTIONS']);
  });

  it('a preflight on an unknown path is still a 404 behind authentication', async () => {
    process.env.CORS_ALLOWED_ORIGINS = ALLOWED;
    expect((await preflight(ALLOWED, '/api/nothing')).status).toBe(401);
  });
});

describe('the typed client example (examples/typescript)', () => {
  it('calls the local server through openapi-fetch with the generated types', async () => {
    const { checkEligibility, health } = await import('../../examples/typescript/client.js');
    expect(await health(api.url)).toBe(`ok ${packageVersion}`);
    const answer = await checkEligibility(api.url, api.token, { ...MOCK_SET_1 });
    expect(answer.inNetwork.individual.copay).toBe('$20.00');
    await expect(checkEligibility(api.url, api.token, { ...MOCK_SET_1, patientDOB: '02-30-1980' })).rejects.toThrow(/400 INVALID_REQUEST/);
  });
});
