import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { connect, type Socket } from 'node:net';
import { LOCAL_LIMITS } from '../../infra/dev/local/hardened-server.js';
import { TtlLru } from '../../infra/dev/local/ttl-lru.js';
import { logCapture } from '../support/log-capture.js';
import { MOCK_SET_1 } from '../support/events.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';

/**
 * The local server under hostile connections (docs/security.md#local-server): slow headers and
 * slow bodies are cut off, malformed HTTP gets a JSON answer, the authorizer cache is bounded, and
 * concurrent requests keep their own request ids in the logs. Timeouts are shortened here (the
 * server's defaults, 10 s and 30 s, are checked as values).
 */

const HEADERS_MS = 600;
const REQUEST_MS = 1_500;

let api: LocalApi;
let host: string;
let port: number;
beforeAll(async () => {
  api = await startLocalApi({ timeouts: { headersTimeoutMs: HEADERS_MS, requestTimeoutMs: REQUEST_MS } });
  const url = new URL(api.url);
  host = url.hostname;
  port = Number(url.port);
}, 30_000);
afterAll(async () => {
  await api?.close();
});

/**
 * Opens a raw connection, writes `parts` with pauses, and resolves with what came back once the
 * server closed it, and how many parts were never written because it had closed by then. A
 * server that never closes fails the test (the guard), so no assertion here depends on timing.
 */
function rawExchange(parts: Array<string | { waitMs: number }>): Promise<{ text: string; unsent: number }> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, host);
    let text = '';
    let next = 0;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => resolve({ text, unsent: parts.slice(next).filter((part) => typeof part === 'string').length }));
    socket.on('error', () => undefined);
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error('the server never closed the connection'));
    }, 20_000);
    socket.once('close', () => clearTimeout(guard));
    // Pauses end early when the server closes the connection, so no timer outlives the test; a pause
    // that ends on its timer takes its close listener off again (a 300-pause drip would pile them up).
    const pause = (ms: number) =>
      new Promise<void>((done) => {
        const end = () => {
          clearTimeout(timer);
          socket.off('close', end);
          done();
        };
        const timer = setTimeout(end, ms);
        socket.once('close', end);
      });
    void (async () => {
      for (; next < parts.length; next++) {
        if (socket.destroyed) return;
        const part = parts[next]!;
        if (typeof part === 'string') socket.write(part);
        else await pause(part.waitMs);
      }
    })();
  });
}

const jsonBodyOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;

describe('local server limits', () => {
  it('uses 10 s for headers, 30 s for the whole request, at most 10,000 authorizer entries, 2,000 headers and 64 MiB of bodies held by default', () => {
    expect(LOCAL_LIMITS).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      authorizerCacheEntries: 10_000,
      maxHeaders: 2_000,
      maxBodyBytesHeld: 64 * 1024 * 1024,
    });
  });

  it('closes a connection whose headers trickle in slower than the header timeout, with a JSON 408', async () => {
    // The client would wait far past the guard: only the server's header timeout can end this.
    const { text, unsent } = await rawExchange(['POST /api/eligibility/v1 HTTP/1.1\r\nHost: x\r\n', { waitMs: 60_000 }, 'X-Late: 1\r\n\r\n']);
    expect(unsent).toBe(1);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text.toLowerCase()).toContain('cache-control: no-store');
    expect(jsonBodyOf(text)).toEqual({ message: 'The request took too long to arrive' });
  });

  it('closes a connection whose body trickles in slower than the request timeout', async () => {
    const head = `POST /api/eligibility/v1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer ${api.token}\r\nContent-Length: 1000\r\n\r\n`;
    // A byte every 100 ms for longer than the guard: the connection never goes idle, so only the
    // timeout on the whole request can end it, while the client is still sending.
    const drip = Array.from({ length: 300 }, () => ['{', { waitMs: 100 }] as const).flat();
    const { text, unsent } = await rawExchange([head, ...drip]);
    expect(unsent).toBeGreaterThan(0);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(jsonBodyOf(text)).toEqual({ message: 'The request took too long to arrive' });
  });

  it('answers a malformed request line with a JSON 400', async () => {
    const { text } = await rawExchange(['GARBAGE\x01 / HTTP/9\r\n\r\n']);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text.toLowerCase()).toContain('content-type: application/json');
    expect(text.toLowerCase()).toMatch(/x-request-id: [0-9a-f-]{36}/);
    expect(jsonBodyOf(text)).toEqual({ message: 'The request is not valid HTTP' });
  });

  it.each([
    ['a control character in a value', 'X-Note: a\x01b', 'The X-Note header is not valid HTTP: its value has a character HTTP does not allow'],
    ['a space in a name', 'Bad Header: x', 'A header name is not valid HTTP'],
    ['a Content-Length that is not a number', 'Content-Length: abc', 'The Content-Length header is not valid: one number, and never with Transfer-Encoding'],
    [
      'two different Content-Lengths',
      'Content-Length: 1\r\nContent-Length: 2',
      'The Content-Length header is not valid: one number, and never with Transfer-Encoding',
    ],
    [
      'a Content-Length, then a Transfer-Encoding',
      'Content-Length: 3\r\nTransfer-Encoding: chunked',
      'The Content-Length header is not valid: one number, and never with Transfer-Encoding',
    ],
    [
      'a Transfer-Encoding, then a Content-Length',
      'Transfer-Encoding: chunked\r\nContent-Length: 3',
      'The Content-Length header is not valid: one number, and never with Transfer-Encoding',
    ],
    ['a Transfer-Encoding other than chunked', 'Transfer-Encoding: chunked, gzip', 'The Transfer-Encoding header is not valid: only chunked is accepted'],
  ])('answers a malformed header (%s) with a JSON 400 that names the header, not the body', async (_label, line, message) => {
    const { text } = await rawExchange([`POST /api/eligibility/v1 HTTP/1.1\r\nHost: x\r\n${line}\r\n\r\n`]);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(jsonBodyOf(text)).toEqual({ message });
  });

  it('after a refusal given on the headers, unparseable bytes that follow get no second answer', async () => {
    const { text } = await rawExchange(['POST /api/eligibility/v1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nnot a body']);
    expect(text).toMatch(/^HTTP\/1\.1 401 /);
    expect(text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });

  it('answers headers over 16 KiB with a JSON 431', async () => {
    const { text } = await rawExchange([`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]);
    expect(text).toMatch(/^HTTP\/1\.1 431 /);
    expect(jsonBodyOf(text)).toEqual({ message: 'The request headers are too large' });
  });
});

describe('concurrent requests and their log lines', () => {
  // The server's default timeouts: the shortened ones above would cut off requests on a loaded machine.
  let busy: LocalApi;
  beforeAll(async () => {
    busy = await startLocalApi();
  }, 30_000);
  afterAll(async () => {
    await busy?.close();
  });
  const capture = logCapture();
  beforeEach(() => capture.start());
  afterEach(() => capture.stop());

  it('each access line carries the id of the request it describes, never another one', async () => {
    const replies = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        i % 3 === 0 ? busy.call('/api/eligibility/v1', { ...MOCK_SET_1, extra: i }) : busy.call('/api/eligibility/v1', MOCK_SET_1),
      ),
    );
    const records = capture.records().filter((record) => record.message === 'request');
    const statusById = new Map(replies.map((reply) => [reply.headers.get('x-request-id'), reply.status]));
    expect(records).toHaveLength(60);
    for (const record of records) expect(record.status).toBe(statusById.get(record.requestId as string));
    expect(new Set(records.map((record) => record.requestId)).size).toBe(60);
  });
});

describe('the authorizer cache (bounded LRU with expiry)', () => {
  it('keeps at most maxEntries, dropping the least recently used first', () => {
    const cache = new TtlLru<number>(3, 60_000);
    for (const key of ['a', 'b', 'c']) cache.set(key, key.charCodeAt(0));
    expect(cache.get('a')).toBe(97); // a is now the most recent
    cache.set('d', 100);
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([97, 99, 100]);
  });

  it('never grows past 10,000 entries under a flood of distinct tokens', () => {
    const cache = new TtlLru<boolean>(LOCAL_LIMITS.authorizerCacheEntries, 60_000);
    for (let i = 0; i < 50_000; i++) cache.set(`token-${i}`, false);
    expect(cache.size).toBe(10_000);
    expect(cache.get('token-49999')).toBe(false);
    expect(cache.get('token-0')).toBeUndefined();
  });

  it('expires entries and stores nothing when the TTL is 0', () => {
    let now = 0;
    const cache = new TtlLru<string>(10, 1_000, () => now);
    cache.set('k', 'v');
    now = 999;
    expect(cache.get('k')).toBe('v');
    now = 2_000;
    expect(cache.get('k')).toBeUndefined();
    expect(cache.size).toBe(0);
    const off = new TtlLru<string>(10, 0);
    off.set('k', 'v');
    expect(off.get('k')).toBeUndefined();
  });
});
