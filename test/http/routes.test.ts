import { describe, expect, it } from '@jest/globals';
import { corsHeaders, corsPolicy, preflightHeaders } from '../../lib/http/cors.js';
import { frontDoor } from '../../lib/http/fallback.js';
import { requestIdFor } from '../../lib/http/request-id.js';
import { matchRoute, ROUTE_TABLE } from '../../lib/http/routes.js';

describe('the route table', () => {
  it('matches each route by method and path', () => {
    for (const route of ROUTE_TABLE) expect(matchRoute(route.method, route.path)).toEqual({ kind: 'route', route });
    expect(matchRoute('post', '/api/eligibility/v1')).toMatchObject({ kind: 'route' });
  });

  it('names the allowed methods of a known path called with another method', () => {
    expect(matchRoute('GET', '/api/eligibility/v1')).toEqual({ kind: 'method-not-allowed', path: '/api/eligibility/v1', allow: ['POST'] });
    expect(matchRoute('POST', '/api/health')).toEqual({ kind: 'method-not-allowed', path: '/api/health', allow: ['GET', 'HEAD'] });
  });

  it('suggests the route when only a trailing slash or the case is wrong, and nothing otherwise', () => {
    expect(matchRoute('POST', '/api/eligibility/v1/')).toEqual({ kind: 'not-found', suggestion: '/api/eligibility/v1' });
    expect(matchRoute('POST', '/API/Generate-Letter')).toEqual({ kind: 'not-found', suggestion: '/api/generate-letter' });
    expect(matchRoute('POST', '/api/eligibility/v2')).toEqual({ kind: 'not-found' });
    expect(matchRoute('GET', '/')).toEqual({ kind: 'not-found' });
  });

  it('has health (GET and HEAD) and the OpenAPI document without authentication, the POST routes with it', () => {
    expect(ROUTE_TABLE.filter((route) => !route.auth).map((route) => `${route.method} ${route.path}`)).toEqual([
      'GET /api/health',
      'HEAD /api/health',
      'GET /api/openapi.json',
      'GET /api/docs',
      'GET /api/docs/scalar.js',
    ]);
  });
});

describe('request ids', () => {
  it("takes the caller's X-Request-Id in any header case when it is 1–128 of [A-Za-z0-9._:-]", () => {
    expect(requestIdFor({ 'x-request-id': 'abc-123' }, 'gw')).toBe('abc-123');
    expect(requestIdFor({ 'X-Request-Id': 'A.b_c:d-9' }, 'gw')).toBe('A.b_c:d-9');
    expect(requestIdFor({ 'X-REQUEST-ID': 'z'.repeat(128) }, 'gw')).toBe('z'.repeat(128));
  });

  it.each([[''], ['z'.repeat(129)], ['a b'], ['a\nb'], ['ü'], ['a,b'], ['{x}']])('falls back to the gateway id for %j', (id) => {
    expect(requestIdFor({ 'x-request-id': id }, 'gateway-id')).toBe('gateway-id');
  });

  it('makes a UUID when there is neither', () => {
    expect(requestIdFor(null)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdFor({}, '')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('CORS', () => {
  it('is off when CORS_ALLOWED_ORIGINS is unset or blank', () => {
    expect(corsPolicy({})).toBeUndefined();
    expect(corsPolicy({ CORS_ALLOWED_ORIGINS: ' , ' })).toBeUndefined();
    expect(corsHeaders(undefined, { origin: 'https://a.example' })).toEqual({});
  });

  it('allows exactly the listed origins (a trailing slash in the setting is forgiven)', () => {
    const policy = corsPolicy({ CORS_ALLOWED_ORIGINS: 'https://a.example/, http://localhost:5173' })!;
    expect(corsHeaders(policy, { Origin: 'https://a.example' })).toMatchObject({ 'access-control-allow-origin': 'https://a.example', vary: 'Origin' });
    expect(corsHeaders(policy, { origin: 'http://localhost:5173' })['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(corsHeaders(policy, { origin: 'https://a.example.evil.com' })).toEqual({ vary: 'Origin' });
    expect(corsHeaders(policy, { origin: 'http://a.example' })).toEqual({ vary: 'Origin' });
    expect(corsHeaders(policy, {})).toEqual({ vary: 'Origin' });
  });

  it("answers a preflight with the path's methods and the four request headers", () => {
    const policy = corsPolicy({ CORS_ALLOWED_ORIGINS: 'https://a.example' })!;
    expect(preflightHeaders(policy, { origin: 'https://a.example' }, ['POST'])).toEqual({
      allow: 'POST, OPTIONS',
      'access-control-allow-origin': 'https://a.example',
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': 'Authorization, Content-Type, Idempotency-Key, X-Request-Id',
      'access-control-max-age': '600',
      vary: 'Origin',
    });
    expect(preflightHeaders(policy, { origin: 'https://b.example' }, ['POST'])).toEqual({ allow: 'POST, OPTIONS', vary: 'Origin' });
  });
});

describe('the front door', () => {
  const env = { CORS_ALLOWED_ORIGINS: 'https://a.example' };
  it('answers 405 with Allow and a 204 preflight without authentication, and leaves 404 behind it', () => {
    const wrong = frontDoor({ method: 'PUT', path: '/api/eligibility/cob/v1', headers: {} }, {});
    expect(wrong.kind).toBe('answer');
    const response = (wrong as { response: (id: string) => { statusCode: number; headers: Record<string, string>; body: string } }).response('rid');
    expect([response.statusCode, response.headers.allow, JSON.parse(response.body).code]).toEqual([405, 'POST', 'METHOD_NOT_ALLOWED']);
    const preflight = frontDoor({ method: 'OPTIONS', path: '/api/eligibility/cob/v1', headers: { origin: 'https://a.example' } }, env);
    expect(preflight.kind === 'answer' && preflight.response('rid').statusCode).toBe(204);
    expect(preflight.kind === 'answer' && preflight.response('rid').headers['cache-control']).toBe('no-store');
    expect(response.headers['cache-control']).toBe('no-store');
    const unknown = frontDoor({ method: 'POST', path: '/api/x', headers: {} }, env);
    expect(unknown.kind).toBe('not-found');
  });
});
