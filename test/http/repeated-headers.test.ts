import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { apiHandler } from '../../lib/http/api-handler.js';
import { repeatedHeader } from '../../lib/http/repeated-headers.js';
import { handler as health } from '../../functions/health/index.js';
import { apiEvent, invoke, MOCK_SET_1 } from '../support/events.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';

/** A repeated Authorization, Idempotency-Key or X-Request-Id, in any casing, is named (docs/security.md#headers). */

describe('repeatedHeader', () => {
  it('finds nothing when each guarded header comes once, other headers may repeat', () => {
    expect(repeatedHeader({ Authorization: ['Bearer a'], 'Idempotency-Key': ['k'], 'X-Request-Id': ['r'], Accept: ['a', 'b'] })).toBeUndefined();
    expect(repeatedHeader(null)).toBeUndefined();
    expect(repeatedHeader(undefined)).toBeUndefined();
  });

  it('counts copies across letter cases (REST events keep the casing, so they are separate keys)', () => {
    expect(repeatedHeader({ Authorization: ['Bearer a'], authorization: ['Bearer b'] })?.header).toBe('Authorization');
    expect(repeatedHeader({ 'IDEMPOTENCY-KEY': ['k1', 'k2'] })?.header).toBe('Idempotency-Key');
    expect(repeatedHeader({ 'x-request-id': ['a'], 'X-Request-ID': ['b'] })?.header).toBe('X-Request-Id');
  });

  it('names the header in a 400 INVALID_REQUEST, not the body', () => {
    const found = repeatedHeader({ 'Idempotency-Key': ['k1', 'k1'] });
    expect(found?.error).toEqual({
      code: 'INVALID_REQUEST',
      status: 400,
      message: 'The Idempotency-Key header is sent more than once; send it once',
      errors: [{ field: 'Idempotency-Key', message: 'must be sent once' }],
    });
    expect(found?.error.message).not.toMatch(/body/i);
  });

  it('reports the first repeated header in the order asked, and only the names asked', () => {
    const both = { 'x-request-id': ['a', 'b'], authorization: ['c', 'd'] };
    expect(repeatedHeader(both)?.header).toBe('Authorization');
    expect(repeatedHeader(both, ['X-Request-Id'])?.header).toBe('X-Request-Id');
    expect(repeatedHeader({ 'x-request-id': ['a', 'b'] }, ['Authorization'])).toBeUndefined();
  });
});

describe('a repeated identity header in an API Gateway event', () => {
  let calls = 0;
  const route = apiHandler('probe', 'eligibility', async () => {
    calls += 1;
    return { ok: true, body: {} };
  });
  const ROUTE = 'POST /api/eligibility/v1';

  /** The event API Gateway builds when the client sent `name` twice: `headers` keeps the last value. */
  const repeated = (name: string, values: [string, string]) => {
    const event = apiEvent(ROUTE, MOCK_SET_1);
    event.headers[name] = values[1];
    event.multiValueHeaders[name] = values;
    return event;
  };

  it.each([
    ['Authorization', ['Bearer local-dev-token', 'Bearer other-token']],
    ['idempotency-key', ['key-1', 'key-2']],
    ['X-REQUEST-ID', ['id-1', 'id-2']],
  ] as const)('%s twice is 400 INVALID_REQUEST naming the header, and the route does not run', async (name, values) => {
    const before = calls;
    const reply = await invoke(route, repeated(name, [...values]));
    const display = { authorization: 'Authorization', 'idempotency-key': 'Idempotency-Key', 'x-request-id': 'X-Request-Id' }[name.toLowerCase()]!;
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'INVALID_REQUEST', errors: [{ field: display, message: 'must be sent once' }] });
    expect(reply.body.message).toContain(display);
    expect(reply.body.message).not.toContain('body');
    expect(calls).toBe(before);
  });

  it('counts two letter cases of one name as a repeat', async () => {
    const event = apiEvent(ROUTE, MOCK_SET_1, { headers: { 'Idempotency-Key': 'a', 'idempotency-key': 'a' } });
    const reply = await invoke(route, event);
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual([{ field: 'Idempotency-Key', message: 'must be sent once' }]);
  });

  it('is refused on the public routes too (same pipeline)', async () => {
    const reply = await health({ headers: { 'X-Request-Id': 'b' }, multiValueHeaders: { 'X-Request-Id': ['a', 'b'] }, requestContext: { requestId: 'gw' } });
    expect(reply.statusCode).toBe(400);
    expect(JSON.parse(reply.body)).toMatchObject({ code: 'INVALID_REQUEST', errors: [{ field: 'X-Request-Id' }] });
    // Neither copy is taken as the request id: the gateway's id names the refusal.
    expect(reply.headers['x-request-id']).toBe('gw');
    expect(JSON.parse(reply.body).requestId).toBe('gw');
  });
});

describe('over HTTP, through the local gateway', () => {
  let api: LocalApi;
  beforeAll(async () => {
    api = await startLocalApi();
  }, 30_000);
  afterAll(async () => {
    await api?.close();
  });

  /** Sends `name` twice as two header lines (fetch would join them into one). */
  const postTwice = (name: string, values: string[]) =>
    new Promise<{ status: number; body: Record<string, any> }>((resolve, reject) => {
      const url = new URL('/api/eligibility/v1', api.url);
      const req = request(
        url,
        { method: 'POST', headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json', [name]: values } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(MOCK_SET_1));
    });

  it.each([
    ['Idempotency-Key', ['key-a', 'key-b']],
    ['x-request-id', ['id-a', 'id-a']],
  ])('%s sent twice is a 400 naming it', async (name, values) => {
    const reply = await postTwice(name, values);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('INVALID_REQUEST');
    expect(reply.body.errors[0].field.toLowerCase()).toBe(name.toLowerCase());
  });
});
