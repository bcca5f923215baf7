import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLocalServer, type LocalServer } from '../../infra/dev/local/server.js';
import { MOCK_SET_1 } from '../support/events.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';
import { rawConnection, requestHead } from './raw-http.js';

/**
 * Authenticate before buffering (docs/security.md#local-server): a refused caller is answered on
 * its headers alone, before it sends a byte of body (here it never sends one: a server that waited
 * for the body would keep the case waiting until Jest's limit, which fails it); `100 Continue` goes only
 * to a caller let in; the bytes of bodies held at once are capped (503 with Retry-After).
 *
 * The server's header and request timeouts are longer than any case runs, so they never answer in the
 * server's place: with them at a second or so, a loaded machine that took that long to load the
 * authorizer got the 408 instead of the 401/403 (docs/testing.md#rules-the-suites-keep).
 */

const ELIGIBILITY = '/api/eligibility/v1';
const SIX_MB = 6 * 1024 * 1024;
const TIMEOUTS = { headersTimeoutMs: 10 * 60_000, requestTimeoutMs: 10 * 60_000 };
const BODY = JSON.stringify(MOCK_SET_1);

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi({ timeouts: TIMEOUTS });
}, 30_000);
afterAll(async () => {
  await api?.close();
});

const jsonHead = (headers: [string, string | number][]) => requestHead('POST', ELIGIBILITY, [['Content-Type', 'application/json'], ...headers]);

describe('a refused caller is answered before its body', () => {
  const cases: [string, [string, string][], number, { message: string }][] = [
    ['a bad token', [['Authorization', 'Bearer nobody-knows-this-token']], 403, { message: 'Forbidden' }],
    ['no token', [], 401, { message: 'Unauthorized' }],
  ];
  it.each(cases)('%s with a 6 MB body announced and none sent: answered at once, then the connection is closed', async (_label, auth, status, body) => {
    const connection = await rawConnection(api.url);
    connection.write(jsonHead([...auth, ['Content-Length', SIX_MB]]));
    const reply = await connection.response();
    expect([reply.status, reply.json]).toEqual([status, body]);
    expect(reply.headers.connection).toBe('close');
    await connection.closed();
  });

  it('Expect: 100-continue with a bad token gets the 403 and never a 100 Continue', async () => {
    const connection = await rawConnection(api.url);
    connection.write(
      jsonHead([
        ['Authorization', 'Bearer nobody-knows-this-token'],
        ['Content-Length', SIX_MB],
        ['Expect', '100-continue'],
      ]),
    );
    const first = await connection.response();
    expect(first.status).toBe(403);
    await connection.closed();
  });

  it('Expect: 100-continue with a good token gets 100 Continue, then the answer to the body', async () => {
    const connection = await rawConnection(api.url);
    connection.write(
      jsonHead([
        ['Authorization', `Bearer ${api.token}`],
        ['Content-Length', Buffer.byteLength(BODY)],
        ['Expect', '100-continue'],
      ]),
    );
    expect((await connection.response()).status).toBe(100);
    connection.write(BODY);
    const answer = await connection.response();
    expect(answer.status).toBe(200);
    connection.close();
  });

  it('a Content-Length over 6 MiB from a good caller is a 413 before the body is sent', async () => {
    const connection = await rawConnection(api.url);
    connection.write(
      jsonHead([
        ['Authorization', `Bearer ${api.token}`],
        ['Content-Length', SIX_MB + 1],
      ]),
    );
    const reply = await connection.response();
    expect(reply.status).toBe(413);
    expect(reply.json).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', requestId: reply.headers['x-request-id'] });
    await connection.closed();
  });
});

describe('the cap on bytes of bodies held at once', () => {
  const bodyBytes = Buffer.byteLength(BODY);
  let capped: LocalServer;
  beforeAll(async () => {
    capped = await startLocalServer({ port: 0, timeouts: TIMEOUTS, maxBodyBytesHeld: bodyBytes + 16 });
  });
  afterAll(async () => {
    await capped?.close();
  });
  const authorized = (length: number, extra: [string, string | number][] = []) =>
    jsonHead([['Authorization', `Bearer ${api.token}`], ['Content-Length', length], ...extra]);

  it('refuses a body that would pass the cap with 503 and Retry-After, and takes it once the held one is answered', async () => {
    const holder = await rawConnection(capped.url);
    holder.write(authorized(bodyBytes, [['Expect', '100-continue']]));
    // 100 Continue: the holder's bytes are counted from here.
    expect((await holder.response()).status).toBe(100);
    holder.write(BODY.slice(0, 10));

    const refused = await rawConnection(capped.url);
    refused.write(authorized(bodyBytes));
    const busy = await refused.response();
    expect(busy.status).toBe(503);
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.json).toEqual({ message: 'The server is holding as many request bodies as it allows; retry shortly' });
    expect(busy.headers.connection).toBe('close');

    holder.write(BODY.slice(10));
    expect((await holder.response()).status).toBe(200);
    holder.close();

    const later = await rawConnection(capped.url);
    later.write(authorized(bodyBytes) + BODY);
    expect((await later.response()).status).toBe(200);
    later.close();
  });

  it('counts a chunked body as it arrives and refuses it at the cap', async () => {
    const connection = await rawConnection(capped.url);
    const chunk = 'x'.repeat(bodyBytes + 17);
    connection.write(
      jsonHead([
        ['Authorization', `Bearer ${api.token}`],
        ['Transfer-Encoding', 'chunked'],
      ]),
    );
    connection.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const reply = await connection.response();
    expect(reply.status).toBe(503);
    await connection.closed();
  });
});
