import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMessagesSandbox, type MessagesSandbox } from '../../infra/dev/sandbox/messages-api.js';
import { fixedClock } from '../../lib/config/clock.js';
import { createMessage, type MessagesCall, type MessagesFailureKind } from '../../lib/upstream/anthropic.js';
import { procedureNotesPdf, toBase64 } from '../fixtures/letter/pdfs.js';

// The thin client alone: a generic Messages request (no letter code), against the loopback sandbox.

let sandbox: MessagesSandbox;
let pdfBase64: string;
beforeAll(async () => {
  sandbox = await startMessagesSandbox();
  pdfBase64 = toBase64(await procedureNotesPdf());
});
afterAll(() => sandbox.close());

/** Retries here skip their waits (the waits themselves are asserted on a fake clock below). */
const noWait = async (): Promise<void> => undefined;
/** The budget's clock stands still, so a busy machine's wall time never spends it (docs/testing.md#rules-the-suites-keep). */
const standing = fixedClock('2026-01-01T00:00:00Z');

const call = (text = '- Patient name: Ada', overrides: Partial<MessagesCall> = {}) =>
  createMessage({
    apiKey: 'sandbox-key',
    baseURL: sandbox.url,
    budgetMs: 10_000,
    tuning: { sleep: noWait, clock: standing },
    request: {
      model: 'claude-test-model',
      max_tokens: 1000,
      system: [{ type: 'text', text: 'You answer.', cache_control: { type: 'ephemeral' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdfBase64 } },
            { type: 'text', text },
          ],
        },
      ],
    },
    ...overrides,
  });

const expectFailure = async (promise: ReturnType<typeof call>, kind: MessagesFailureKind) => {
  const result = await promise;
  if (result.ok) throw new Error('expected a failure');
  expect(result.failure.kind).toBe(kind);
  return result.failure;
};

describe('createMessage', () => {
  it('returns the message, its usage, the request id and one attempt', async () => {
    const before = sandbox.requestCount();
    const result = await call();
    if (!result.ok) throw new Error(result.failure.kind);
    expect(result.value.message.model).toBe('claude-test-model');
    expect(result.value.message.content[0]).toMatchObject({ type: 'text' });
    expect(result.value.requestId).toMatch(/^req_sandbox_/);
    expect(result.value.attempts).toBe(1);
    expect(result.value.usage.inputTokens).toBeGreaterThan(0);
    expect(result.value.usage.outputTokens).toBeGreaterThan(0);
    expect(sandbox.requestCount() - before).toBe(1);
  });

  it('reports cache reads once the cached system prompt was seen', async () => {
    await call();
    const second = await call('- Patient name: Grace');
    if (!second.ok) throw new Error(second.failure.kind);
    expect(second.value.usage.cacheReadTokens).toBeGreaterThan(0);
    expect(second.value.usage.cacheWriteTokens).toBe(0);
  });

  it('retries a transient 529 once and succeeds', async () => {
    const result = await call('SANDBOX:FLAKY retry-test');
    expect(result.ok && result.value.attempts).toBe(2);
  });

  it.each([
    ['SANDBOX:529', undefined],
    ['SANDBOX:500', undefined],
    ['SANDBOX:429', 1],
  ])('reports unavailable after one retry for %s', async (marker, retryAfter) => {
    const before = sandbox.requestCount();
    const failure = await expectFailure(call(marker), 'unavailable');
    expect(sandbox.requestCount() - before).toBe(2);
    expect(failure.attempts).toBe(2);
    expect(failure.retryAfterSeconds).toBe(retryAfter);
  });

  it('does not retry when the budget cannot hold a second attempt', async () => {
    const before = sandbox.requestCount();
    await expectFailure(call('SANDBOX:529', { budgetMs: 2_000 }), 'unavailable');
    expect(sandbox.requestCount() - before).toBe(1);
  });

  it('reports rejected credentials without echoing the key', async () => {
    const failure = await expectFailure(call(undefined, { apiKey: 'invalid-secret-value-123' }), 'credentials');
    expect(JSON.stringify(failure)).not.toContain('secret-value');
  });

  it('reports 403 as credentials and does not retry', async () => {
    const before = sandbox.requestCount();
    await expectFailure(call('SANDBOX:403'), 'credentials');
    expect(sandbox.requestCount() - before).toBe(1);
  });

  it('makes no call without a key', async () => {
    const before = sandbox.requestCount();
    await expectFailure(call(undefined, { apiKey: '' }), 'no-key');
    expect(sandbox.requestCount()).toBe(before);
  });

  it('times out at the budget: the abort is armed with the whole budget, one attempt, no retry', async () => {
    // The sandbox never answers SANDBOX:TIMEOUT, so only the budget can end this call. The clock
    // stands still, so the abort must be armed with exactly the caller's budget.
    const armed: number[] = [];
    const before = sandbox.requestCount();
    const timeoutSignal = (ms: number) => {
      armed.push(ms);
      return AbortSignal.timeout(ms);
    };
    const failure = await expectFailure(call('SANDBOX:TIMEOUT', { budgetMs: 500, tuning: { clock: { now: () => 0 }, timeoutSignal } }), 'timeout');
    expect(armed).toEqual([500]);
    expect(failure.attempts).toBe(1);
    expect(sandbox.requestCount() - before).toBe(1);
  });

  it('reports a 400 as rejected', () => expectFailure(call('SANDBOX:400'), 'rejected'));
  it('reports a broken body as unreadable', () => expectFailure(call('SANDBOX:BADJSON'), 'unreadable'));

  it('reports an unreachable host as unavailable after a retry', async () => {
    const closed = await startMessagesSandbox();
    const url = closed.url;
    await closed.close();
    const failure = await expectFailure(call(undefined, { baseURL: url }), 'unavailable');
    expect(failure.attempts).toBe(2);
  });
});

describe('createMessage under the shared retry policy (fake clock: no real waiting)', () => {
  function fakeClock() {
    let t = 5_000_000;
    const sleeps: number[] = [];
    const sleep = async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    };
    return { now: () => t, sleep, sleeps };
  }

  it("honours the API's Retry-After (1 s) inside the budget, sleeping on the injected clock", async () => {
    const clock = fakeClock();
    const before = sandbox.requestCount();
    const failure = await expectFailure(call('SANDBOX:429', { tuning: { clock, sleep: clock.sleep } }), 'unavailable');
    expect(clock.sleeps).toEqual([1_000]);
    expect(failure.attempts).toBe(2);
    expect(sandbox.requestCount() - before).toBe(2);
  });

  it('reads a Retry-After HTTP date against the injected clock, not the wall clock', async () => {
    const clock = fakeClock();
    // A loopback API that is always rate limited and names its wait as a date two seconds after the
    // fake clock's now (on the wall clock that date is decades past: no wait at all).
    const limited = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const body = JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'Rate limited' } });
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': new Date(clock.now() + 2_000).toUTCString() });
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => limited.listen(0, '127.0.0.1', resolve));
    try {
      const baseURL = `http://127.0.0.1:${(limited.address() as AddressInfo).port}`;
      const failure = await expectFailure(call('- Patient name: Ada', { baseURL, tuning: { clock, sleep: clock.sleep } }), 'unavailable');
      expect(clock.sleeps).toEqual([2_000]);
      expect(failure).toMatchObject({ attempts: 2, status: 429, retryAfterSeconds: 2 });
    } finally {
      limited.closeAllConnections();
      await new Promise((resolve) => limited.close(resolve));
    }
  });

  it("waits the client's default backoff when the API names no wait", async () => {
    const clock = fakeClock();
    const result = await call('SANDBOX:FLAKY fake-clock-test', { tuning: { clock, sleep: clock.sleep } });
    expect(result.ok && result.value.attempts).toBe(2);
    expect(clock.sleeps).toEqual([400]);
  });

  it('does not retry when the Retry-After and a useful attempt no longer fit in the budget', async () => {
    const clock = fakeClock();
    const before = sandbox.requestCount();
    // 1 s Retry-After + 3 s for a useful letter attempt > 3.5 s budget.
    const failure = await expectFailure(call('SANDBOX:429', { budgetMs: 3_500, tuning: { clock, sleep: clock.sleep } }), 'unavailable');
    expect(failure).toMatchObject({ attempts: 1, retryAfterSeconds: 1 });
    expect(clock.sleeps).toEqual([]);
    expect(sandbox.requestCount() - before).toBe(1);
  });
});
