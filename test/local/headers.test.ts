import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MOCK_SET_1 } from '../support/events.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';
import { rawConnection, requestHead, type RawReply } from './raw-http.js';

/**
 * Headers the local server refuses rather than guess at (docs/security.md#local-server): a repeated
 * Authorization, Idempotency-Key or X-Request-Id in any casing is a 400 naming the header; more
 * headers than it reads (2,000) is a 431, never a header dropped without a word.
 */

const ELIGIBILITY = '/api/eligibility/v1';
const BODY = JSON.stringify(MOCK_SET_1);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
}, 30_000);
afterAll(async () => {
  await api?.close();
});

async function post(headers: [string, string | number][], body = BODY): Promise<RawReply> {
  const connection = await rawConnection(api.url);
  connection.write(requestHead('POST', ELIGIBILITY, [['Content-Type', 'application/json'], ['Content-Length', Buffer.byteLength(body)], ...headers]) + body);
  try {
    return await connection.response();
  } finally {
    connection.close();
  }
}

const good = () => `Bearer ${api.token}`;
const BAD = 'Bearer nobody-knows-this-token';

describe('a repeated Authorization', () => {
  it('is a 400 naming the header, whichever copy is good, and a bad token never rides on a good one', async () => {
    for (const pair of [
      [
        ['Authorization', BAD],
        ['Authorization', good()],
      ],
      [
        ['Authorization', good()],
        ['Authorization', BAD],
      ],
      [
        ['authorization', BAD],
        ['AUTHORIZATION', good()],
      ],
    ] as [string, string][][]) {
      const reply = await post(pair);
      expect(reply.status).toBe(400);
      expect(reply.json).toEqual({
        message: 'The Authorization header is sent more than once; send it once',
        code: 'INVALID_REQUEST',
        requestId: reply.headers['x-request-id'],
        errors: [{ field: 'Authorization', message: 'must be sent once' }],
      });
    }
    // The bad token alone is still refused: nothing was cached for it.
    expect((await post([['Authorization', BAD]])).status).toBe(403);
    expect((await post([['Authorization', good()]])).status).toBe(200);
  });
});

describe('a repeated Idempotency-Key or X-Request-Id', () => {
  it('Idempotency-Key twice (even the same value, any casing) is a 400 that names it, not the body', async () => {
    const reply = await post([
      ['Authorization', good()],
      ['Idempotency-Key', 'key-1'],
      ['idempotency-key', 'key-1'],
    ]);
    expect(reply.status).toBe(400);
    expect(reply.json.message).toBe('The Idempotency-Key header is sent more than once; send it once');
    expect(reply.json.errors).toEqual([{ field: 'Idempotency-Key', message: 'must be sent once' }]);
  });

  it('X-Request-Id twice is a 400 under a fresh request id, neither of the two sent', async () => {
    const reply = await post([
      ['Authorization', good()],
      ['X-Request-Id', 'first-id'],
      ['X-Request-Id', 'second-id'],
    ]);
    expect(reply.status).toBe(400);
    expect(reply.json.message).toContain('X-Request-Id');
    expect(reply.headers['x-request-id']).toMatch(UUID);
    expect(reply.json.requestId).toBe(reply.headers['x-request-id']);
  });
});

describe('more headers than the server reads', () => {
  /** `count` headers in all (Host, Content-Type and Content-Length included), `Idempotency-Key` last. */
  const withHeaders = (count: number): [string, string][] => [
    ['Authorization', good()],
    ...Array.from({ length: count - 5 }, () => ['X', '1'] as [string, string]),
    ['Idempotency-Key', ' not a valid key '],
  ];

  it('2,100 headers are a JSON 431, not a request whose last header went missing', async () => {
    const reply = await post(withHeaders(2_100));
    expect(reply.status).toBe(431);
    expect(reply.json).toEqual({ message: 'The request has more than 2000 headers' });
    expect(reply.headers['cache-control']).toBe('no-store');
  });

  it('2,000 headers are read, the last one included (its malformed Idempotency-Key is refused)', async () => {
    const reply = await post(withHeaders(2_000));
    expect(reply.status).toBe(400);
    expect(reply.json.errors).toEqual([expect.objectContaining({ field: 'Idempotency-Key' })]);
  });
});
