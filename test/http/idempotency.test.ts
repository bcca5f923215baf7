import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startClearinghouseSandbox, type ClearinghouseSandbox } from '../../infra/dev/sandbox/clearinghouse.js';
import { startMessagesSandbox, type MessagesSandbox } from '../../infra/dev/sandbox/messages-api.js';
import { readIdempotencyKey } from '../../lib/http/idempotency.js';
import { logCapture } from '../support/log-capture.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { apiEvent, invoke, MOCK_SET_1, SANDBOX_GARCIA } from '../support/events.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';
import { startUpstreamGate, type UpstreamGate } from '../batch/upstream-gate.js';

/**
 * Idempotency keys end to end: HTTP → local gateway → function → Powertools idempotency over
 * dynalite → loopback sandboxes that count every upstream request. The clearinghouse sits behind a
 * loopback gate that passes calls through unless a test holds them (so a request can be kept in
 * progress for exactly as long as a test needs, whatever the machine's load).
 */

const ELIGIBILITY = '/api/eligibility/v1';
const garcia = SANDBOX_GARCIA;
const letterBody = JSON.parse(JSON.parse(readFileSync(new URL('../../events/letter-text.json', import.meta.url), 'utf8')).body) as Record<string, unknown>;

const OTHER_TOKEN = 'other-client-token-0001';

let clearinghouse: ClearinghouseSandbox;
let gate: UpstreamGate;
let messages: MessagesSandbox;
let api: LocalApi;
let n = 0;
const freshKey = () => `test-key-${Date.now()}-${n++}`;

async function post(path: string, body: unknown, headers: Record<string, string>, token = api.token) {
  const response = await fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
}

beforeAll(async () => {
  clearinghouse = await startClearinghouseSandbox({ apiKey: 'idem-key' });
  gate = await startUpstreamGate(clearinghouse.url);
  messages = await startMessagesSandbox();
  process.env.STEDI_BASE_URL = gate.url;
  process.env.STEDI_API_KEY = 'idem-key';
  process.env.ANTHROPIC_BASE_URL = messages.url;
  process.env.ANTHROPIC_API_KEY = 'sandbox-key';
  process.env.API_TOKENS = `local=local-dev-token,other=${OTHER_TOKEN}`;
  api = await startLocalApi();
}, 60_000);

afterAll(async () => {
  await api?.close();
  gate?.release();
  await gate?.close();
  await clearinghouse?.close();
  await messages?.close();
});

describe('Idempotency-Key header', () => {
  it('accepts 1–255 visible ASCII characters and rejects anything else naming the header', () => {
    expect(readIdempotencyKey({})).toEqual({ ok: true, value: undefined });
    expect(readIdempotencyKey({ 'idempotency-key': 'a' })).toEqual({ ok: true, value: 'a' });
    expect(readIdempotencyKey({ 'idempotency-key': '~'.repeat(255) })).toEqual({ ok: true, value: '~'.repeat(255) });
    for (const bad of ['', 'x'.repeat(256), 'has space', 'tab\there', 'caf\u00e9']) {
      const result = readIdempotencyKey({ 'idempotency-key': bad });
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('INVALID_REQUEST');
        expect(result.error.errors?.[0]?.field).toBe('Idempotency-Key');
      }
    }
  });

  it('a malformed key over HTTP is 400 INVALID_REQUEST naming the header, and nothing runs', async () => {
    const before = clearinghouse.stats.rawX12Calls;
    const reply = await post(ELIGIBILITY, garcia, { 'Idempotency-Key': 'x'.repeat(256) });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'INVALID_REQUEST', errors: [{ field: 'Idempotency-Key', message: expect.any(String) }] });
    expect(clearinghouse.stats.rawX12Calls).toBe(before);
  });
});

describe('replay', () => {
  it('the same eligibility request twice with one key makes one upstream call and gets identical answers', async () => {
    const key = freshKey();
    const before = clearinghouse.stats.rawX12Calls;
    const first = await post(ELIGIBILITY, garcia, { 'Idempotency-Key': key });
    const second = await post(ELIGIBILITY, garcia, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    expect(first.body.coverageStatus).toBe('Active');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('content-type')).toBe('application/json');
    // The replay is its own request: its own request id in the header.
    expect(second.headers.get('x-request-id')).toBeTruthy();
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(clearinghouse.stats.rawX12Calls - before).toBe(1);
  });

  it('key order in the body does not matter; a different body is 422 IDEMPOTENCY_KEY_REUSED with no upstream call', async () => {
    const key = freshKey();
    await post(ELIGIBILITY, garcia, { 'Idempotency-Key': key });
    const before = clearinghouse.stats.rawX12Calls;
    const reordered = Object.fromEntries(Object.entries(garcia).reverse());
    const same = await post(ELIGIBILITY, reordered, { 'Idempotency-Key': key });
    expect(same.headers.get('idempotent-replayed')).toBe('true');
    const different = await post(ELIGIBILITY, { ...garcia, dateOfCoverage: '03-02-2025' }, { 'Idempotency-Key': key });
    expect(different.status).toBe(422);
    expect(different.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', message: expect.any(String), requestId: different.headers.get('x-request-id') });
    expect(clearinghouse.stats.rawX12Calls).toBe(before);
  });

  it('a request refused before it runs (schema) is not recorded: the corrected request may reuse the key', async () => {
    const key = freshKey();
    const invalid = await post(ELIGIBILITY, { ...garcia, patientDOB: '02-30-1985' }, { 'Idempotency-Key': key });
    expect(invalid.status).toBe(400);
    const corrected = await post(ELIGIBILITY, garcia, { 'Idempotency-Key': key });
    expect(corrected.status).toBe(200);
    expect(corrected.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a 4xx answer is stored and replayed too', async () => {
    const key = freshKey();
    const first = await post(ELIGIBILITY, { ...garcia, providerId: 'NO-SUCH-PROVIDER' }, { 'Idempotency-Key': key });
    const second = await post(ELIGIBILITY, { ...garcia, providerId: 'NO-SUCH-PROVIDER' }, { 'Idempotency-Key': key });
    expect(first.status).toBe(403);
    expect([second.status, second.headers.get('idempotent-replayed')]).toEqual([403, 'true']);
    // The stored body, naming the request that is answered now (docs/runtime.md#idempotency).
    expect(second.body).toEqual({ ...first.body, requestId: second.headers.get('x-request-id') });
    expect(second.body.requestId).not.toBe(first.body.requestId);
  });

  it('a 5xx answer is not stored: the repeat runs again', async () => {
    const key = freshKey();
    const miss = { ...MOCK_SET_1, patientLastName: 'Nobody' };
    const first = await post(ELIGIBILITY, miss, { 'Idempotency-Key': key });
    const second = await post(ELIGIBILITY, miss, { 'Idempotency-Key': key });
    expect(first.status).toBe(500);
    expect(second.status).toBe(500);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keys are scoped per client: another client using the same key gets its own answer', async () => {
    const key = freshKey();
    await post(ELIGIBILITY, MOCK_SET_1, { 'Idempotency-Key': key });
    const other = await post(ELIGIBILITY, MOCK_SET_1, { 'Idempotency-Key': key }, OTHER_TOKEN);
    expect(other.status).toBe(200);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    // …and the other client's repeat is replayed from its own record.
    const otherAgain = await post(ELIGIBILITY, MOCK_SET_1, { 'Idempotency-Key': key }, OTHER_TOKEN);
    expect(otherAgain.headers.get('idempotent-replayed')).toBe('true');
  });

  it('keys are separate per route: the same key on COB is a new request', async () => {
    const key = freshKey();
    await post(ELIGIBILITY, MOCK_SET_1, { 'Idempotency-Key': key });
    const {
      patientDOB: _d,
      patientMemberId: _m,
      ...cobBody
    } = { ...MOCK_SET_1, patientFirstName: 'Jane', patientLastName: 'Smith', dateOfCoverage: '02-02-2025', payerId: 'PAYER002', providerId: 'PROVIDER002' };
    const cob = await post('/api/eligibility/cob/v1', cobBody, { 'Idempotency-Key': key });
    expect(cob.status).toBe(200);
    expect(cob.headers.get('idempotent-replayed')).toBeNull();
    const again = await post('/api/eligibility/cob/v1', cobBody, { 'Idempotency-Key': key });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('the streamed letter route replays the stored letter without a second AI call', async () => {
    const key = freshKey();
    const before = messages.requestCount();
    const first = await post('/api/generate-letter', letterBody, { 'Idempotency-Key': key });
    const second = await post('/api/generate-letter', letterBody, { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    expect(first.body.letter).toContain('Medical Necessity');
    expect([second.status, second.text, second.headers.get('idempotent-replayed')]).toEqual([200, first.text, 'true']);
    expect(messages.requestCount() - before).toBe(1);
  });
});

describe('what is not stored, and a store outage', () => {
  const counting = (body: unknown) => {
    let calls = 0;
    const handler = (table: string) =>
      apiHandler(
        'probe',
        'eligibility',
        async () => {
          calls += 1;
          return { ok: true, body };
        },
        { idempotencyTable: table },
      );
    return { handler, calls: () => calls };
  };
  const keyed = (key: string) => apiEvent('POST /api/eligibility/v1', MOCK_SET_1, { headers: { 'Idempotency-Key': key } });

  it('an answer too large for one DynamoDB item is sent but not stored; the repeat runs again', async () => {
    const probe = counting({ padding: 'x'.repeat(400 * 1024) });
    const handler = probe.handler(process.env.IDEMPOTENCY_TABLE!);
    const key = freshKey();
    const first = await invoke(handler, keyed(key));
    const second = await invoke(handler, keyed(key));
    expect([first.status, second.status, second.headers['idempotent-replayed']]).toEqual([200, 200, undefined]);
    expect(probe.calls()).toBe(2);
  });

  it('when the idempotency store cannot be used, the request fails (500) before the route runs', async () => {
    const probe = counting({ ok: true });
    const reply = await invoke(probe.handler('no-such-table'), keyed(freshKey()));
    expect(reply.status).toBe(500);
    expect(reply.body.code).toBe('INTERNAL_ERROR');
    expect(probe.calls()).toBe(0);
  });
});

describe('access log', () => {
  it('one line per request, saying whether the answer was stored or replayed', async () => {
    const key = freshKey();
    const capture = logCapture();
    capture.start();
    try {
      await post(ELIGIBILITY, MOCK_SET_1, { 'Idempotency-Key': key });
      await post(ELIGIBILITY, MOCK_SET_1, { 'Idempotency-Key': key });
    } finally {
      capture.stop();
    }
    const records = capture.records();
    const requests = records.filter((r) => r.message === 'request' && r.route === 'eligibility');
    expect(requests.map((r) => [r.status, r.idempotency])).toEqual([
      [200, 'stored'],
      [200, 'replayed'],
    ]);
    expect(records.filter((r) => r.route === 'eligibility')).toHaveLength(2);
  });
});

describe('in progress', () => {
  it('a concurrent duplicate is 409 REQUEST_IN_PROGRESS with Retry-After; after the first ends, the repeat is replayed', async () => {
    const key = freshKey();
    const before = clearinghouse.stats.rawX12Calls;
    // The gate holds the first request's clearinghouse call: its in-progress record exists, and it
    // stays in progress until released, however long the duplicate takes.
    gate.holding = true;
    const first = post(ELIGIBILITY, garcia, { 'Idempotency-Key': key });
    try {
      while (gate.held === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const duplicate = await post(ELIGIBILITY, garcia, { 'Idempotency-Key': key });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body).toMatchObject({ code: 'REQUEST_IN_PROGRESS', requestId: duplicate.headers.get('x-request-id') });
      expect(Number(duplicate.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      gate.release();
    }
    const done = await first;
    expect(done.status).toBe(200);
    const later = await post(ELIGIBILITY, garcia, { 'Idempotency-Key': key });
    expect([later.status, later.text, later.headers.get('idempotent-replayed')]).toEqual([200, done.text, 'true']);
    expect(clearinghouse.stats.rawX12Calls - before).toBe(1);
  }, 30_000);
});
