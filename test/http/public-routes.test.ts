import { describe, expect, it } from '@jest/globals';
import { handler as docs } from '../../functions/docs/index.js';
import { handler as health } from '../../functions/health/index.js';
import { handler as notFound } from '../../functions/not-found/index.js';
import { handler as openapi } from '../../functions/openapi/index.js';
import { proxyEvent } from '../../infra/dev/local/events.js';
import { SERVICE_VERSION } from '../../lib/config/version.js';

/** The unauthenticated functions and the catch-all, on REST API proxy events (header names in the caller's casing). */

const restEvent = (method: string, path: string, headers: Record<string, string> = {}) =>
  proxyEvent({ method, path, resource: '/{proxy+}', rawHeaders: Object.entries(headers), requestId: 'gw-1' }, null, null);

describe('GET /api/health and GET /api/openapi.json', () => {
  it("health answers status and version with the gateway id, or the caller's", async () => {
    const reply = await health(restEvent('GET', '/api/health'));
    expect([reply.statusCode, JSON.parse(reply.body)]).toEqual([200, { status: 'ok', version: SERVICE_VERSION }]);
    expect(reply.headers['x-request-id']).toBe('gw-1');
    expect((await health(restEvent('GET', '/api/health', { 'X-Request-Id': 'abc-123' }))).headers['x-request-id']).toBe('abc-123');
  });

  it("health answers HEAD with the GET answer's status and headers and no body (uptime monitors)", async () => {
    const get = await health(restEvent('GET', '/api/health', { 'X-Request-Id': 'same' }));
    const head = await health(restEvent('HEAD', '/api/health', { 'X-Request-Id': 'same' }));
    expect([head.statusCode, head.headers, head.body]).toEqual([200, get.headers, '']);
    expect(get.body).not.toBe('');
  });

  it('docs answers the API reference page and its script, each with its own content type', async () => {
    const page = await docs(restEvent('GET', '/api/docs'));
    expect([page.statusCode, page.headers['content-type'], page.headers['x-request-id']]).toEqual([200, 'text/html; charset=utf-8', 'gw-1']);
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'self'; script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(page.body).toContain('Scalar.createApiReference');
    const script = await docs(restEvent('GET', '/api/docs/scalar.js'));
    expect([script.statusCode, script.headers['content-type']]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(script.body.length).toBeGreaterThan(1_000_000);
    // The CSP hash is the inline initialiser's: change one without the other and the browser refuses it.
    const inline = /<script>([\s\S]*?)<\/script>/.exec(page.body)![1]!;
    const { createHash } = await import('node:crypto');
    expect(page.headers['content-security-policy']).toContain(`'sha256-${createHash('sha256').update(inline).digest('base64')}'`);
  });

  it('openapi answers the document', async () => {
    const reply = await openapi(restEvent('GET', '/api/openapi.json'));
    expect(JSON.parse(reply.body)).toMatchObject({ openapi: '3.1.0', info: { version: SERVICE_VERSION } });
  });
});

describe('the catch-all function', () => {
  it('answers 405 with Allow and 404 with a hint', async () => {
    const event = restEvent;
    const wrong = await notFound(event('GET', '/api/generate-letter', { 'X-Request-Id': 'r-1' }));
    expect([wrong.statusCode, wrong.headers.allow, wrong.headers['x-request-id']]).toEqual([405, 'POST', 'r-1']);
    expect(JSON.parse(wrong.body)).toEqual({ message: '/api/generate-letter accepts only POST', code: 'METHOD_NOT_ALLOWED', requestId: 'r-1' });
    const unknown = await notFound(event('POST', '/api/generate-letter/'));
    expect(unknown.statusCode).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('did you mean /api/generate-letter?') });
  });

  it('answers a defined route sent to it by mistake with a 500, not a wrong 404', async () => {
    expect((await notFound(restEvent('POST', '/api/eligibility/v1'))).statusCode).toBe(500);
  });
});
