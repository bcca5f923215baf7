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
    const reply = await invoke(echo, apiEvent(ROUTE, undefined, { rawBody: '{"__proto__": {"admin": true}}' }));
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('INVALID_REQUEST');
    expect(reply.body.errors).toEqual([{ field: '__proto__', message: 'is not an allowed field' }]);
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
      error: serviceError('PAYER_UNAVAILABLE', { rejections: [{ code: '42', description: 'Unable to Respond at Current Time', followUpAction: 'R: Resubmission Allowed', loop: '2100A' }] }),
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
