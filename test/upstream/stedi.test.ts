import { describe, it, expect, beforeAll, afterAll, beforeEach } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixedClock } from '../../lib/config/clock.js';
import { postCob, postRawX12, type ReadCob, type StediRetryTuning } from '../../lib/upstream/stedi.js';

/** A loopback Stedi whose answers each test scripts, one per request; it records what it was sent. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
type Script = (res: ServerResponse) => void;

let server: Server;
let base: string;
let script: Script[] = [];
let seen: Seen[] = [];

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Script =>
  (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

/** A fake clock for the retry policy: sleeping advances it and is recorded, nothing really waits. */
function fakeClock() {
  let t = 2_000_000;
  const sleeps: number[] = [];
  const sleep = async (ms: number): Promise<void> => {
    sleeps.push(ms);
    t += ms;
  };
  return { now: () => t, sleep, sleeps };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      const next = script.shift() ?? json(500, { message: 'unscripted' });
      next(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/2024-04-01`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  script = [];
  seen = [];
});

const KEY = 'test_key_9f8e7d';
const X12 = 'ISA*00*...~IEA*1*000000001~';
/**
 * Short waits, and a clock that stands still: no budget here runs out on a busy machine's wall time
 * (docs/testing.md#rules-the-suites-keep). The cases about the budget bring their own clock.
 */
const fast: StediRetryTuning = { delayMs: () => 10, clock: fixedClock('2026-01-01T00:00:00Z') };
/** A reading that never asks for a retry. */
const final = () => ({ reading: undefined, retryable: false });
const raw = (overrides: Partial<Parameters<typeof postRawX12>[0]> = {}, tuning: StediRetryTuning = fast) =>
  postRawX12({ baseUrl: base, apiKey: KEY, x12: X12, budgetMs: 5_000, ...overrides }, final, tuning);

describe('postRawX12', () => {
  it('POSTs {"x12"} to the raw X12 path with the bare key and returns the reply x12 with trace id', async () => {
    script = [json(200, { x12: 'ISA*271...', meta: {} }, { 'x-amzn-requestid': 'req-123' })];
    const { result, meta } = await raw();
    expect(result).toEqual({ ok: true, value: { x12: 'ISA*271...', httpStatus: 200 } });
    expect(meta).toMatchObject({ attempts: 1, httpStatus: 200, traceId: 'req-123' });
    expect(meta.latencyMs).toBeGreaterThanOrEqual(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.url).toBe('/2024-04-01/change/medicalnetwork/eligibility/v3/raw-x12');
    expect(seen[0]!.headers.authorization).toBe(KEY);
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0]!.body)).toEqual({ x12: X12 });
  });

  it('returns the x12 of an HTTP 400 too (a 999 or a payer rejection)', async () => {
    script = [json(400, { x12: 'ISA*999...', errors: [] })];
    const { result, meta } = await raw();
    expect(result).toEqual({ ok: true, value: { x12: 'ISA*999...', httpStatus: 400 } });
    expect(meta.attempts).toBe(1);
  });

  it('a missing key is a CONFIGURATION_ERROR without any call', async () => {
    for (const apiKey of [undefined, '']) {
      const { result, meta } = await raw({ apiKey });
      expect(result).toMatchObject({ ok: false, error: { status: 500, code: 'CONFIGURATION_ERROR' } });
      expect(!result.ok && result.error.message).toContain('STEDI_API_KEY');
      expect(meta.attempts).toBe(0);
    }
    expect(seen).toHaveLength(0);
  });

  it.each([401, 403])('HTTP %d is a CONFIGURATION_ERROR that never echoes the key, and is not retried', async (status) => {
    script = [json(status, { message: 'Unauthorized' }), json(200, { x12: 'no' })];
    const { result, meta } = await raw();
    expect(result).toMatchObject({ ok: false, error: { status: 500, code: 'CONFIGURATION_ERROR' } });
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(meta.attempts).toBe(1);
    expect(seen).toHaveLength(1);
  });

  it.each([429, 500, 502, 503])('HTTP %d twice → 503 PAYER_UNAVAILABLE after exactly 2 attempts', async (status) => {
    script = [json(status, { message: 'x' }), json(status, { message: 'x' })];
    const { result, meta } = await raw();
    expect(result).toMatchObject({ ok: false, error: { status: 503, code: 'PAYER_UNAVAILABLE', retryAfterSeconds: 30 } });
    expect(meta.attempts).toBe(2);
    expect(seen).toHaveLength(2);
  });

  it('a 500 then a 200 succeeds on the retry', async () => {
    script = [json(500, {}), json(200, { x12: 'ISA*second' }, { 'x-amzn-requestid': 'second' })];
    const { result, meta } = await raw();
    expect(result).toEqual({ ok: true, value: { x12: 'ISA*second', httpStatus: 200 } });
    expect(meta).toMatchObject({ attempts: 2, traceId: 'second' });
  });

  it('honours a Retry-After that fits, and passes it on as retryAfterSeconds', async () => {
    script = [json(429, {}, { 'retry-after': '1' }), json(429, {}, { 'retry-after': '1' })];
    const clock = fakeClock();
    const { result, meta } = await postRawX12({ baseUrl: base, apiKey: KEY, x12: X12, budgetMs: 5_000 }, final, { clock, sleep: clock.sleep });
    // Waited exactly the upstream's 1 s before the retry (not the client's own backoff), once.
    expect(clock.sleeps).toEqual([1_000]);
    expect(meta.attempts).toBe(2);
    expect(result).toMatchObject({ ok: false, error: { code: 'PAYER_UNAVAILABLE', retryAfterSeconds: 1 } });
  });

  it('reads a Retry-After HTTP date against the injected clock, and measures latency on it', async () => {
    const clock = fakeClock();
    // Two seconds after the fake clock's now; on the wall clock this date is decades past (no wait).
    const inTwoSeconds = new Date(clock.now() + 2_000).toUTCString();
    script = [json(503, {}, { 'retry-after': inTwoSeconds }), json(200, { x12: 'ISA*after' })];
    const { result, meta } = await raw({}, { clock, sleep: clock.sleep });
    expect(clock.sleeps).toEqual([2_000]);
    expect(result).toEqual({ ok: true, value: { x12: 'ISA*after', httpStatus: 200, reading: undefined } });
    expect(meta).toMatchObject({ attempts: 2, latencyMs: 2_000 });
  });

  it('passes on a Retry-After HTTP date that does not fit as retryAfterSeconds from the injected clock', async () => {
    const clock = fakeClock();
    script = [json(429, {}, { 'retry-after': new Date(clock.now() + 4_000).toUTCString() }), json(200, { x12: 'late' })];
    const { result, meta } = await raw({ budgetMs: 3_000 }, { clock, sleep: clock.sleep });
    expect(clock.sleeps).toEqual([]);
    expect(meta.attempts).toBe(1);
    expect(result).toMatchObject({ ok: false, error: { code: 'PAYER_UNAVAILABLE', retryAfterSeconds: 4 } });
  });

  it('does not retry when Retry-After exceeds the budget', async () => {
    script = [json(503, {}, { 'retry-after': '120' }), json(200, { x12: 'late' })];
    const clock = fakeClock();
    const { result, meta } = await raw({}, { clock, sleep: clock.sleep });
    expect(clock.sleeps).toEqual([]);
    expect(meta.attempts).toBe(1);
    expect(result).toMatchObject({ ok: false, error: { code: 'PAYER_UNAVAILABLE', retryAfterSeconds: 120 } });
  });

  it('a network error is retried once, then 503', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const { result, meta } = await raw({ baseUrl: `http://127.0.0.1:${port}` });
    expect(result).toMatchObject({ ok: false, error: { status: 503, code: 'PAYER_UNAVAILABLE' } });
    expect(meta.attempts).toBe(2);
    expect(meta.httpStatus).toBeUndefined();
  });

  it('a server that never answers is cut at the budget: 504, one attempt', async () => {
    // The budget's abort is injected and fires once the server holds the request (which it never
    // answers): no real timer, and the abort was armed with exactly the connection's budget.
    const budget = new AbortController();
    const armed: number[] = [];
    const cut: Script = () => budget.abort();
    script = [cut, cut];
    const clock = fakeClock();
    const timeoutSignal = (ms: number) => {
      armed.push(ms);
      return budget.signal;
    };
    const { result, meta } = await raw({ budgetMs: 300 }, { clock, sleep: clock.sleep, timeoutSignal });
    expect(armed).toEqual([300]);
    expect(result).toMatchObject({ ok: false, error: { status: 504, code: 'UPSTREAM_TIMEOUT' } });
    expect(meta.attempts).toBe(1);
    expect(seen).toHaveLength(1);
  });

  it.each([
    ['unreadable JSON', json(200, '{"x12": "ISA*')],
    ['a JSON array', json(200, '[1,2]')],
    ['no x12 field', json(200, { status: 'ok' })],
    ['an empty x12', json(400, { x12: '  ' })],
    ['HTTP 404', json(404, { message: 'Not Found' })],
    ['HTTP 422', json(422, { x12: 'ISA' })],
  ])('%s → 502 UPSTREAM_ERROR, not retried', async (_label, answer) => {
    script = [answer, json(200, { x12: 'ISA*should-not-be-asked' })];
    const { result, meta } = await raw();
    expect(result).toMatchObject({ ok: false, error: { status: 502, code: 'UPSTREAM_ERROR' } });
    expect(meta.attempts).toBe(1);
  });

  it('read: a reply it calls retryable (AAA 42) is tried once more; the last reply and its reading are returned, each reply read once', async () => {
    script = [json(200, { x12: 'AAA42-first' }), json(200, { x12: 'AAA42-second' })];
    const built: number[] = [];
    const reads: string[] = [];
    const { result, meta } = await postRawX12(
      {
        baseUrl: base,
        apiKey: KEY,
        budgetMs: 5_000,
        x12: (attemptNo) => {
          built.push(attemptNo);
          return `270-attempt-${attemptNo}`;
        },
      },
      (reply) => {
        reads.push(reply);
        return { reading: `read ${reply}`, retryable: reply.startsWith('AAA42') };
      },
      fast,
    );
    expect(result).toEqual({ ok: true, value: { x12: 'AAA42-second', httpStatus: 200, reading: 'read AAA42-second' } });
    expect(reads).toEqual(['AAA42-first', 'AAA42-second']);
    expect(meta.attempts).toBe(2);
    expect(built).toEqual([1, 2]);
    expect(seen.map((s) => JSON.parse(s.body).x12)).toEqual(['270-attempt-1', '270-attempt-2']);
  });
});

describe('postCob', () => {
  const noRetry: ReadCob<string> = (status) => ({ reading: `read ${status}`, retryable: false });
  const cob = (read: ReadCob<string> = noRetry, apiKey: string | undefined = KEY) =>
    postCob({ baseUrl: base, apiKey, request: { controlNumber: '123456789', encounter: { serviceTypeCode: '30' } }, budgetMs: 5_000 }, read, fast);

  it('POSTs the request JSON to /coordination-of-benefits and returns status, body and reading of a 200 or 400', async () => {
    script = [json(200, { coordinationOfBenefits: { classification: 'MemberFoundNoCob' } }), json(400, { errors: [{ code: '75' }] })];
    const first = await cob();
    expect(first.result).toEqual({
      ok: true,
      value: { httpStatus: 200, body: { coordinationOfBenefits: { classification: 'MemberFoundNoCob' } }, reading: 'read 200' },
    });
    expect(seen[0]!.url).toBe('/2024-04-01/coordination-of-benefits');
    expect(seen[0]!.headers.authorization).toBe(KEY);
    expect(JSON.parse(seen[0]!.body)).toEqual({ controlNumber: '123456789', encounter: { serviceTypeCode: '30' } });
    const second = await cob();
    expect(second.result).toEqual({ ok: true, value: { httpStatus: 400, body: { errors: [{ code: '75' }] }, reading: 'read 400' } });
  });

  it('classifies like the raw endpoint: missing key, 401, 5xx twice, bad JSON', async () => {
    expect((await cob(noRetry, '')).result).toMatchObject({ ok: false, error: { code: 'CONFIGURATION_ERROR' } });
    script = [json(401, {})];
    expect((await cob()).result).toMatchObject({ ok: false, error: { code: 'CONFIGURATION_ERROR' } });
    script = [json(500, {}), json(503, {})];
    const unavailable = await cob();
    expect(unavailable.result).toMatchObject({ ok: false, error: { code: 'PAYER_UNAVAILABLE' } });
    expect(unavailable.meta.attempts).toBe(2);
    script = [json(200, 'not json')];
    expect((await cob()).result).toMatchObject({ ok: false, error: { code: 'UPSTREAM_ERROR' } });
  });

  it('reads each reply once: the reading flags an answer (AAA 42 in errors) for one more attempt and is returned', async () => {
    script = [json(200, { errors: [{ code: '42' }] }), json(200, { coordinationOfBenefits: { classification: 'MemberFoundNoCob' } })];
    const reads: unknown[] = [];
    const { result, meta } = await cob((_status, body) => {
      reads.push(body);
      const aaa42 = JSON.stringify(body).includes('"42"');
      return { reading: aaa42 ? 'unavailable' : 'answered', retryable: aaa42 };
    });
    expect(meta.attempts).toBe(2);
    expect(reads).toEqual([{ errors: [{ code: '42' }] }, { coordinationOfBenefits: { classification: 'MemberFoundNoCob' } }]);
    expect(result).toEqual({
      ok: true,
      value: { httpStatus: 200, body: { coordinationOfBenefits: { classification: 'MemberFoundNoCob' } }, reading: 'answered' },
    });
  });

  it('returns the last retryable reply with its reading when no attempt is left', async () => {
    script = [json(200, { errors: [{ code: '42' }] }), json(400, { errors: [{ code: '80' }] })];
    let reads = 0;
    const { result, meta } = await cob((status) => ({ reading: `read ${status} #${++reads}`, retryable: true }));
    expect(meta.attempts).toBe(2);
    expect(reads).toBe(2);
    expect(result).toEqual({ ok: true, value: { httpStatus: 400, body: { errors: [{ code: '80' }] }, reading: 'read 400 #2' } });
  });
});
