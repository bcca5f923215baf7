import { describe, it, expect, afterAll, beforeAll } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixedClock } from '../../lib/config/clock.js';
import { fail, ok, serviceError } from '../../lib/errors/index.js';
import { parseRetryAfter, retryAfterOf, withRetry, type Attempt } from '../../lib/upstream/retry.js';

/** A fake clock: sleeping advances it, attempts can spend time on it too. */
function fakeClock() {
  let t = 1_000_000;
  const sleeps: number[] = [];
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
    sleeps,
  };
}

const unavailable = (retryAfterMs?: number): Attempt<string> =>
  retryAfterMs === undefined
    ? { retryable: true, error: serviceError('PAYER_UNAVAILABLE') }
    : { retryable: true, error: serviceError('PAYER_UNAVAILABLE'), retryAfterMs };

describe('withRetry with a fake clock', () => {
  it('returns the first success after one attempt', async () => {
    const clock = fakeClock();
    const run = await withRetry(async () => ok('271'), { budgetMs: 25_000, clock, sleep: clock.sleep });
    expect(run).toEqual({ outcome: ok('271'), attempts: 1, elapsedMs: 0 });
    expect(clock.sleeps).toEqual([]);
  });

  it('never retries a data error', async () => {
    const clock = fakeClock();
    let calls = 0;
    const run = await withRetry(
      async () => {
        calls++;
        return fail(serviceError('PAYER_REJECTED'));
      },
      { budgetMs: 25_000, clock, sleep: clock.sleep },
    );
    expect(calls).toBe(1);
    expect(run.attempts).toBe(1);
    expect(run.outcome.ok === false && run.outcome.error.code).toBe('PAYER_REJECTED');
  });

  it('retries a retryable failure exactly once, after the default delay', async () => {
    const clock = fakeClock();
    const seen: number[] = [];
    const run = await withRetry(
      async (_signal, attemptNo) => {
        seen.push(attemptNo);
        return unavailable();
      },
      { budgetMs: 25_000, clock, sleep: clock.sleep },
    );
    expect(seen).toEqual([1, 2]);
    expect(run.attempts).toBe(2);
    expect(clock.sleeps).toEqual([200]);
    expect(run.outcome.ok === false && run.outcome.error.code).toBe('PAYER_UNAVAILABLE');
  });

  it('succeeds on the retry', async () => {
    const clock = fakeClock();
    const run = await withRetry(async (_s, n) => (n === 1 ? unavailable() : ok('second')), {
      budgetMs: 25_000,
      clock,
      sleep: clock.sleep,
      delayMs: () => 50,
    });
    expect(run.outcome).toEqual(ok('second'));
    expect(run.attempts).toBe(2);
    expect(clock.sleeps).toEqual([50]);
  });

  it('honours a Retry-After that fits in the budget', async () => {
    const clock = fakeClock();
    const run = await withRetry(async (_s, n) => (n === 1 ? unavailable(3_000) : ok('later')), {
      budgetMs: 25_000,
      clock,
      sleep: clock.sleep,
    });
    expect(clock.sleeps).toEqual([3_000]);
    expect(run.outcome).toEqual(ok('later'));
    expect(run.elapsedMs).toBe(3_000);
  });

  it('does not retry when Retry-After would overrun the budget', async () => {
    const clock = fakeClock();
    let calls = 0;
    const run = await withRetry(
      async () => {
        calls++;
        clock.advance(1_000);
        return unavailable(60_000);
      },
      { budgetMs: 25_000, clock, sleep: clock.sleep },
    );
    expect(calls).toBe(1);
    expect(clock.sleeps).toEqual([]);
    expect(run.outcome.ok === false && run.outcome.error.code).toBe('PAYER_UNAVAILABLE');
  });

  it('does not retry when the first attempt used up nearly all of the budget', async () => {
    const clock = fakeClock();
    let calls = 0;
    const run = await withRetry(
      async () => {
        calls++;
        clock.advance(24_600);
        return unavailable();
      },
      { budgetMs: 25_000, clock, sleep: clock.sleep },
    );
    expect(calls).toBe(1);
    expect(run.attempts).toBe(1);
  });

  it('gives each attempt a signal limited to the remaining budget', async () => {
    const clock = fakeClock();
    const timeouts: number[] = [];
    await withRetry(
      async () => {
        clock.advance(4_000);
        return unavailable();
      },
      {
        budgetMs: 10_000,
        clock,
        sleep: clock.sleep,
        timeoutSignal: (ms) => {
          timeouts.push(ms);
          return new AbortController().signal;
        },
      },
    );
    // 10 000 for the first; 10 000 − 4 000 spent − 200 waited for the second.
    expect(timeouts).toEqual([10_000, 5_800]);
  });

  it("returns the attempt's own final outcome when no retry happens", async () => {
    const clock = fakeClock();
    const run = await withRetry<string>(async () => ({ retryable: true, error: serviceError('PAYER_UNAVAILABLE'), final: ok('271 with AAA 42') }), {
      budgetMs: 25_000,
      clock,
      sleep: clock.sleep,
    });
    expect(run.attempts).toBe(2);
    expect(run.outcome).toEqual(ok('271 with AAA 42'));
  });

  it('treats a throw as a network failure (retried) and a throw after the budget fired as a timeout', async () => {
    const clock = fakeClock();
    let calls = 0;
    const network = await withRetry<string>(
      async () => {
        calls++;
        throw new TypeError('fetch failed');
      },
      { budgetMs: 25_000, clock, sleep: clock.sleep },
    );
    expect(calls).toBe(2);
    expect(network.outcome.ok === false && network.outcome.error.code).toBe('PAYER_UNAVAILABLE');

    const aborted = new AbortController();
    aborted.abort();
    const timeout = await withRetry<string>(
      async () => {
        throw new Error('aborted');
      },
      { budgetMs: 25_000, clock, sleep: clock.sleep, timeoutSignal: () => aborted.signal },
    );
    expect(timeout.attempts).toBe(1);
    expect(timeout.outcome.ok === false && timeout.outcome.error.code).toBe('UPSTREAM_TIMEOUT');
  });

  it('honours maxAttempts 1 (no retry at all)', async () => {
    const clock = fakeClock();
    const run = await withRetry(async () => unavailable(), { budgetMs: 25_000, maxAttempts: 1, clock, sleep: clock.sleep });
    expect(run.attempts).toBe(1);
  });
});

describe('withRetry: one policy for every client', () => {
  it("does not wait for a Retry-After longer than the client's maxWaitMs, even inside the budget", async () => {
    const clock = fakeClock();
    const run = await withRetry(async () => unavailable(12_000), { budgetMs: 120_000, maxWaitMs: 10_000, clock, sleep: clock.sleep });
    expect(run.attempts).toBe(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("speaks a client's own error type through `failures`", async () => {
    const clock = fakeClock();
    type Kind = { kind: 'timeout' | 'unavailable' };
    const failures = { timeout: (): Kind => ({ kind: 'timeout' }), unreachable: (): Kind => ({ kind: 'unavailable' }) };
    const thrown = await withRetry<string, Kind>(
      async () => {
        throw new TypeError('socket hang up');
      },
      { budgetMs: 10_000, clock, sleep: clock.sleep, failures },
    );
    expect(thrown).toMatchObject({ attempts: 2, outcome: { ok: false, error: { kind: 'unavailable' } } });
    const spent = await withRetry<string, Kind>(async () => ({ ok: true, value: 'never' }), { budgetMs: 0, clock, sleep: clock.sleep, failures });
    expect(spent).toMatchObject({ attempts: 0, outcome: { ok: false, error: { kind: 'timeout' } } });
  });

  it('hands each attempt the budget left as it starts', async () => {
    const clock = fakeClock();
    const seen: number[] = [];
    await withRetry(
      async (_signal, _n, remainingMs) => {
        seen.push(remainingMs);
        clock.advance(1_000);
        return unavailable();
      },
      { budgetMs: 10_000, clock, sleep: clock.sleep },
    );
    expect(seen).toEqual([10_000, 8_800]);
  });
});

/** The clock a Retry-After date is read against in these tests (the caller's, never the wall's). */
const NOW = Date.parse('2026-01-01T00:00:00Z');

describe('retryAfterOf', () => {
  it('reads retry-after-ms first, then retry-after (seconds with decimals, or a date)', () => {
    expect(retryAfterOf(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), NOW)).toBe(250);
    expect(retryAfterOf(new Headers({ 'retry-after': '1.5' }), NOW)).toBe(1_500);
    expect(retryAfterOf(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), NOW)).toBe(3_000);
    expect(retryAfterOf(new Headers({ 'retry-after': 'later' }), NOW)).toBeUndefined();
    expect(retryAfterOf(undefined, NOW)).toBeUndefined();
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates, ignores garbage', () => {
    expect(parseRetryAfter('2', NOW)).toBe(2_000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', NOW)).toBe(5_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
  });
});

describe('withRetry against a real loopback server', () => {
  let server: Server;
  let url: string;
  let hits = 0;
  /** Called when a request for /slow arrives; that request is never answered. */
  let onSlow = (): void => undefined;

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits++;
      if (req.url === '/slow') return void onSlow();
      if (req.url === '/flaky' && hits % 2 === 1) {
        res.statusCode = 503;
        return void res.end('busy');
      }
      res.end('fine');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const fetchAttempt =
    (path: string) =>
    async (signal: AbortSignal): Promise<Attempt<string>> => {
      const response = await fetch(`${url}${path}`, { signal });
      if (response.status >= 500) return unavailable();
      return ok(await response.text());
    };

  it('retries a 503 and returns the second answer', async () => {
    hits = 0;
    // A clock that stands still: the budget cannot run out on a busy machine's wall time.
    const run = await withRetry(fetchAttempt('/flaky'), { budgetMs: 5_000, delayMs: () => 10, clock: fixedClock('2026-01-01T00:00:00Z') });
    expect(run.outcome).toEqual(ok('fine'));
    expect(run.attempts).toBe(2);
    expect(hits).toBe(2);
  });

  it("arms the attempt's abort at the budget, and a fetch cut by it is a timeout, not retried", async () => {
    // The budget's timer is the injected signal: it fires once the server holds the request, so
    // nothing here waits on a real clock. The signal was asked for exactly the budget.
    const clock = fakeClock();
    const budget = new AbortController();
    const armed: number[] = [];
    onSlow = () => budget.abort();
    const run = await withRetry(fetchAttempt('/slow'), {
      budgetMs: 300,
      clock,
      sleep: clock.sleep,
      timeoutSignal: (ms) => {
        armed.push(ms);
        return budget.signal;
      },
    });
    expect(armed).toEqual([300]);
    expect(run.outcome.ok === false && run.outcome.error.code).toBe('UPSTREAM_TIMEOUT');
    expect(run.attempts).toBe(1);
    expect(clock.sleeps).toEqual([]);
  });
});

describe('the budget deadline runs on the injected clock, not on the wall', () => {
  /** An attempt that waits until its signal fires, recording that it did. */
  const waitForAbort =
    (fired: { at?: number }, clock: { now(): number }) =>
    async (signal: AbortSignal): Promise<Attempt<string>> => {
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      fired.at = clock.now();
      throw signal.reason;
    };
  const wallPause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('a clock that stands still holds the deadline off however long the wall runs; a jump past it fires it', async () => {
    const clock = fakeClock();
    const fired: { at?: number } = {};
    const run = withRetry(waitForAbort(fired, clock), { budgetMs: 20, clock, sleep: clock.sleep });
    // Ten times the budget on the wall (a busy machine): the clock says no time passed, so nothing fires.
    await wallPause(200);
    expect(fired.at).toBeUndefined();
    clock.advance(20);
    const outcome = await run;
    expect(outcome.outcome.ok === false && outcome.outcome.error.code).toBe('UPSTREAM_TIMEOUT');
    expect(outcome.attempts).toBe(1);
    expect(outcome.elapsedMs).toBe(20);
  });

  it('a clock running at a tenth of the wall fires the deadline when it, not the wall, reaches the budget', async () => {
    const started = Date.now();
    const slow = { now: () => 5_000_000 + Math.floor((Date.now() - started) / 10) };
    const fired: { at?: number } = {};
    const budgetMs = 15;
    const outcome = await withRetry(waitForAbort(fired, slow), { budgetMs, clock: slow, sleep: async () => undefined });
    expect(outcome.outcome.ok === false && outcome.outcome.error.code).toBe('UPSTREAM_TIMEOUT');
    // On the clock the attempt got its whole budget, never less.
    expect(fired.at! - 5_000_000).toBeGreaterThanOrEqual(budgetMs);
    expect(outcome.elapsedMs).toBeGreaterThanOrEqual(budgetMs);
  });
});
