import { describe, expect, it } from '@jest/globals';
import { serviceError } from '../../lib/errors/index.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { apiEvent, invoke, MOCK_SET_1 } from '../support/events.js';

const ROUTE = 'POST /api/eligibility/v1';
const { mockRequest: _m, ...valid } = MOCK_SET_1;

const echo = apiHandler('test', 'eligibility', async ({ body, clientId }) => ({ ok: true, body: { firstName: body.patientFirstName, clientId } }));

describe('the shared HTTP pipeline', () => {
  it('passes a valid body and the authorizer clientId to the route, with x-request-id', async () => {
    const event = apiEvent(ROUTE, valid, { clientId: 'acme' });
    const reply = await invoke(echo, event);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ firstName: 'John', clientId: 'acme' });
    expect(reply.headers['x-request-id']).toBe(event.requestContext.requestId);
    expect(reply.headers['content-type']).toBe('application/json');
  });

  it.each([['text/plain'], ['application/xml'], [null]])('answers 415 for content-type %s', async (contentType) => {
    const reply = await invoke(echo, apiEvent(ROUTE, valid, { contentType }));
    expect(reply.status).toBe(415);
    expect(reply.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.any(String), requestId: expect.any(String) });
  });

  it('accepts application/json with a charset', async () => {
    expect((await invoke(echo, apiEvent(ROUTE, valid, { contentType: 'application/json; charset=utf-8' }))).status).toBe(200);
  });

  it.each([
    ['broken JSON', '{"patientFirstName": '],
    ['an array', '[1,2]'],
    ['null', 'null'],
    ['a string', '"hello"'],
    ['an empty body', ''],
  ])('answers 400 INVALID_JSON for %s', async (_label, rawBody) => {
    const reply = await invoke(echo, apiEvent(ROUTE, undefined, { rawBody }));
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('INVALID_JSON');
    expect(reply.body.requestId).toBe(reply.headers['x-request-id']);
  });

  it('treats a __proto__ key as a disallowed field, not a crash', async () => {
    const reply = await invoke(echo, apiEvent(ROUTE, undefined, { rawBody: JSON.stringify(valid).replace('{', '{"__proto__": {"admin": true},') }));
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('INVALID_REQUEST');
    expect(reply.body.errors).toEqual([{ field: '__proto__', message: 'is not an allowed field' }]);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('names constructor (the key sent) when a body carries constructor.prototype', async () => {
    const reply = await invoke(echo, apiEvent(ROUTE, undefined, { rawBody: JSON.stringify(valid).replace('{', '{"constructor": {"prototype": {"x": 1}},') }));
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual([{ field: 'constructor', message: 'is not an allowed field' }]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it.each([
    ['a repeated key', '{"a": 1, "a": 2}', /repeats the key "a"/],
    ['a repeated key spelled with an escape', '{"mockRequest": true, "mock\\u0052equest": false}', /repeats the key "mockRequest"/],
    ['a repeated key in a nested object', '{"x": {"b": 1, "b": 1}}', /repeats the key "b"/],
    ['an escaped lone surrogate', '{"a": "\\ud800"}', /surrogate/],
    ['a raw lone surrogate', '{"a": "\ud800"}', /surrogate/],
    ['trailing text', '{"a": 1} x', /extra text/],
    ['a trailing comma', '{"a": 1,}', /key/],
    ['deep nesting', `${'['.repeat(10_000)}${']'.repeat(10_000)}`, /nesting/],
  ])('answers 400 INVALID_JSON for %s', async (_label, rawBody, message) => {
    const reply = await invoke(echo, apiEvent(ROUTE, undefined, { rawBody }));
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'INVALID_JSON', message });
  });

  it.each([
    ['an overlong "/" (C0 AF)', [0xc0, 0xaf]],
    ['an overlong NUL (E0 80 80)', [0xe0, 0x80, 0x80]],
    ['a surrogate encoded in UTF-8 (ED A0 80)', [0xed, 0xa0, 0x80]],
    ['a stray continuation byte', [0x80]],
    ['a truncated sequence', [0xe2, 0x82]],
    ['a code point past U+10FFFF (F4 90 80 80)', [0xf4, 0x90, 0x80, 0x80]],
  ])('answers 400 INVALID_JSON when a base64-passed body holds %s', async (_label, bytes) => {
    const raw = Buffer.concat([Buffer.from('{"patientFirstName": "Jo'), Buffer.from(bytes), Buffer.from('hn"}')]);
    const event = { ...apiEvent(ROUTE, undefined, { rawBody: raw.toString('base64') }), isBase64Encoded: true };
    const reply = await invoke(echo, event);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'INVALID_JSON', message: 'The body is not valid UTF-8' });
  });

  it('reads a valid base64-passed UTF-8 body', async () => {
    const event = {
      ...apiEvent(ROUTE, undefined, { rawBody: Buffer.from(JSON.stringify({ ...valid, patientFirstName: 'Zoë' })).toString('base64') }),
      isBase64Encoded: true,
    };
    const reply = await invoke(echo, event);
    expect(reply.status).toBe(200);
    expect(reply.body.firstName).toBe('Zoë');
  });

  it('refuses a text body carrying U+FFFD, the trace of bytes that were not UTF-8', async () => {
    const reply = await invoke(echo, apiEvent(ROUTE, { ...valid, patientFirstName: 'Jo\ufffdhn' }));
    expect(reply.body).toMatchObject({ code: 'INVALID_JSON', message: 'The body is not valid UTF-8' });
  });

  it('caps errors at 50 and says so with errorsTruncated', async () => {
    const body = { ...valid, ...Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`k${i}`, i])) };
    const reply = await invoke(echo, apiEvent(ROUTE, body));
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toHaveLength(50);
    expect(reply.body.errorsTruncated).toBe(true);
    const few = await invoke(echo, apiEvent(ROUTE, { ...valid, k: 1 }));
    expect(few.body.errorsTruncated).toBeUndefined();
  });

  it('sends Cache-Control: no-store on successes and errors', async () => {
    expect((await invoke(echo, apiEvent(ROUTE, valid))).headers['cache-control']).toBe('no-store');
    expect((await invoke(echo, apiEvent(ROUTE, undefined, { rawBody: '{' }))).headers['cache-control']).toBe('no-store');
  });

  it('refuses to send an answer too large for Lambda, as a 502 UPSTREAM_ERROR', async () => {
    const huge = apiHandler('huge', 'eligibility', async () => ({ ok: true, body: { rows: 'x'.repeat(6 * 1024 * 1024) } }));
    const reply = await invoke(huge, apiEvent(ROUTE, valid));
    expect(reply.status).toBe(502);
    expect(reply.body.code).toBe('UPSTREAM_ERROR');
  });

  it('lists every schema problem at once', async () => {
    const reply = await invoke(echo, apiEvent(ROUTE, { ...valid, patientDOB: '02-30-1980', extra: 1 }));
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('INVALID_REQUEST');
    expect(reply.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['extra', 'patientDOB']);
  });

  it('turns an unexpected exception into 500 INTERNAL_ERROR without internals', async () => {
    const boom = apiHandler('boom', 'eligibility', async () => {
      throw new TypeError('secret detail at /var/task/db.js: patient John Doe');
    });
    const reply = await invoke(boom, apiEvent(ROUTE, valid));
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual({ message: 'Internal server error', code: 'INTERNAL_ERROR', requestId: reply.headers['x-request-id'] });
  });

  it('renders a route ServiceError with its status, Retry-After on 503 and rejections', async () => {
    const unavailable = apiHandler('u', 'eligibility', async () => ({
      ok: false,
      error: serviceError('PAYER_UNAVAILABLE', {
        rejections: [{ code: '42', description: 'Unable to Respond at Current Time', followUpAction: 'R: Resubmission Allowed', loop: '2100A' }],
      }),
    }));
    const reply = await invoke(unavailable, apiEvent(ROUTE, valid));
    expect(reply.status).toBe(503);
    expect(reply.headers['retry-after']).toMatch(/^\d+$/);
    expect(reply.body.rejections).toHaveLength(1);
  });

  it('generates a request id when the event has none', async () => {
    const event = apiEvent(ROUTE, valid);
    (event.requestContext as { requestId?: string }).requestId = '';
    const reply = await invoke(echo, event);
    expect(reply.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
