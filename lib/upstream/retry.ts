/**
 * The upstream hygiene rule (docs/api.md#upstreams), written once for every upstream client (Stedi
 * and Anthropic): one attempt plus at most one retry, only for failures the attempt marks retryable,
 * all inside one time budget. A Retry-After is honoured when the wait and a useful attempt still fit
 * in the budget (and the wait is not longer than the client's `maxWaitMs`); otherwise the failure is
 * returned at once. Every attempt gets an AbortSignal that fires when the budget is spent, so a slow
 * upstream can never hold the caller past it. The budget runs on one injected `Clock` (its deadline
 * too, not a wall-clock timer) and waits on an injected `sleep`, so tests never wait and a busy
 * machine does not change an outcome that the clock says is in budget (docs/architecture.md#time).
 */
import { systemClock, type Clock } from '../config/index.js';
import { serviceError, type ServiceError } from '../errors/index.js';

/** An attempt's final outcome, in the caller's own error type (ServiceError for Stedi). */
type Outcome<T, E = ServiceError> = { ok: true; value: T } | { ok: false; error: E };

/** An attempt that failed in a way worth trying again (HTTP 429/5xx, network error, AAA 42/80). */
interface RetryableFailure<T, E = ServiceError> {
  retryable: true;
  /** The outcome when no retry happens (budget spent, or this was the last attempt). */
  error: E;
  /** Upstream's Retry-After; the retry happens only if this wait still fits in the budget. */
  retryAfterMs?: number;
  /**
   * When set, the outcome to return instead of `error` if no retry happens: e.g. a 271 whose AAA 42
   * should still reach the interpreter so the caller sees the payer's own rejection.
   */
  final?: Outcome<T, E>;
}

/** What one attempt reports: a final outcome (success or a data error, never retried) or a retryable failure. */
export type Attempt<T, E = ServiceError> = Outcome<T, E> | RetryableFailure<T, E>;

/**
 * One attempt: `signal` fires when the budget is spent; `remainingMs` is the budget left as it starts;
 * `clock` is the policy's clock, on which a Retry-After date (`parseRetryAfter`) is read.
 */
export type AttemptFn<T, E> = (signal: AbortSignal, attemptNo: number, remainingMs: number, clock: Clock) => Promise<Attempt<T, E>>;

/** The errors the policy itself produces: budget spent before an attempt, an attempt that threw. */
export interface RetryFailures<E> {
  timeout(): E;
  unreachable(): E;
}

/** The knobs a client tunes (its own waits), and the seams tests inject (time). */
export interface RetryTuning {
  maxAttempts?: number;
  /** Wait before attempt n+1 when upstream gave no Retry-After. */
  delayMs?: (attemptNo: number) => number;
  /** A retry is skipped when less than this would be left for it after the wait. */
  minAttemptMs?: number;
  /** A Retry-After longer than this is not waited for inside a request (the failure carries it instead). */
  maxWaitMs?: number;
  /** The clock the budget and its deadline run on (default: the system clock). */
  clock?: Clock;
  sleep?: Sleep;
  /** Builds the per-attempt abort signal for `ms` of budget left; defaults to {@link clockDeadline} on `clock`. */
  timeoutSignal?: (ms: number) => AbortSignal;
}

export interface RetryOptions<E = ServiceError> extends RetryTuning {
  /** Total wall time for all attempts and the wait between them (25 s under API Gateway's 30 s: docs/api.md#limits). */
  budgetMs?: number;
  failures?: RetryFailures<E>;
}

export interface RetryOutcome<T, E = ServiceError> {
  outcome: Outcome<T, E>;
  attempts: number;
  elapsedMs: number;
}

const DEFAULT_BUDGET_MS = 25_000;
const DEFAULT_MAX_ATTEMPTS = 2;
const DEFAULT_MIN_ATTEMPT_MS = 500;
const defaultDelay = (): number => 200;
/** Waits `ms`. Code that waits takes one of these, so tests pass a fake and never wait (docs/testing.md). */
export type Sleep = (ms: number) => Promise<void>;

/** The real sleep, a timer: the default wherever production wires a `Sleep`. */
export const timerSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The policy's own failures for clients that speak the error table (Stedi). */
const SERVICE_FAILURES: RetryFailures<ServiceError> = {
  timeout: () => serviceError('UPSTREAM_TIMEOUT'),
  unreachable: () => serviceError('PAYER_UNAVAILABLE'),
};

const isRetryable = <T, E>(attempt: Attempt<T, E>): attempt is RetryableFailure<T, E> => 'retryable' in attempt && attempt.retryable === true;

/**
 * Runs `attempt` under the retry policy. An attempt that throws is treated as a network failure
 * (retryable), or as a budget timeout when its signal had already fired.
 */
export function withRetry<T>(attempt: AttemptFn<T, ServiceError>, options?: RetryOptions<ServiceError>): Promise<RetryOutcome<T, ServiceError>>;
export function withRetry<T, E>(attempt: AttemptFn<T, E>, options: RetryOptions<E> & { failures: RetryFailures<E> }): Promise<RetryOutcome<T, E>>;
export async function withRetry<T, E>(attempt: AttemptFn<T, E>, options: RetryOptions<E> = {}): Promise<RetryOutcome<T, E>> {
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const delayMs = options.delayMs ?? defaultDelay;
  const minAttemptMs = options.minAttemptMs ?? DEFAULT_MIN_ATTEMPT_MS;
  const maxWaitMs = options.maxWaitMs ?? Number.POSITIVE_INFINITY;
  // The one default of the clock; each attempt is handed it, so a Retry-After date is read on it too.
  const clock = options.clock ?? systemClock;
  const now = (): number => clock.now();
  const sleep = options.sleep ?? timerSleep;
  // The overloads guarantee `failures` whenever E is not ServiceError.
  const failures = options.failures ?? (SERVICE_FAILURES as unknown as RetryFailures<E>);

  const started = now();
  const remaining = (): number => budgetMs - (now() - started);
  const done = (outcome: Outcome<T, E>, attempts: number): RetryOutcome<T, E> => ({ outcome, attempts, elapsedMs: now() - started });
  const failed = (error: E): Outcome<T, E> => ({ ok: false, error });

  for (let attemptNo = 1; ; attemptNo++) {
    const left = remaining();
    if (left <= 0) return done(failed(failures.timeout()), attemptNo - 1);

    const deadline = options.timeoutSignal ? { signal: options.timeoutSignal(left), stop: () => undefined } : clockDeadline(clock, started + budgetMs);
    const { signal } = deadline;
    let reported: Attempt<T, E>;
    try {
      reported = await attempt(signal, attemptNo, left, clock);
    } catch {
      // A throw after the budget fired is the budget's doing; otherwise the upstream was unreachable.
      if (signal.aborted || remaining() <= 0) return done(failed(failures.timeout()), attemptNo);
      reported = { retryable: true, error: failures.unreachable() };
    } finally {
      deadline.stop();
    }

    if (!isRetryable(reported)) return done(reported, attemptNo);

    const failure = reported;
    const giveUp = (): RetryOutcome<T, E> => done(failure.final ?? failed(failure.error), attemptNo);
    if (attemptNo >= maxAttempts) return giveUp();
    const wait = failure.retryAfterMs ?? delayMs(attemptNo);
    // Retry only if the wait plus a useful attempt still fit; a Retry-After beyond the budget means "not now".
    if (wait > maxWaitMs || wait + minAttemptMs > remaining()) return giveUp();
    if (wait > 0) await sleep(wait);
  }
}

/** How often a deadline looks at its clock at most: a clock that jumps ahead is noticed within this. */
const DEADLINE_LOOK_MS = 250;

/**
 * An AbortSignal that fires (a TimeoutError) once `clock` reads `deadlineMs` or later. A timer wakes
 * it to look at the clock, at the latest when the wall would reach the deadline and at least every
 * quarter second, so the signal follows the clock: a clock that runs slow or stands still holds it
 * off, one that jumps past the deadline fires it. `stop()` ends the watch once the attempt is over.
 */
export function clockDeadline(clock: Clock, deadlineMs: number): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const look = (): void => {
    const left = deadlineMs - clock.now();
    if (left <= 0) {
      controller.abort(new DOMException('The upstream budget is spent', 'TimeoutError'));
      return;
    }
    timer = setTimeout(look, Math.min(left, DEADLINE_LOOK_MS));
    timer.unref?.();
  };
  look();
  return { signal: controller.signal, stop: () => clearTimeout(timer) };
}

/**
 * Parses an HTTP Retry-After header (delta-seconds, decimals allowed, or an HTTP-date) into
 * milliseconds. A date is measured from `nowMs`: the retry policy's clock (the attempt's `clock`), not the wall's.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (header == null) return undefined;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** The wait an answer asks for: `retry-after-ms` (Anthropic's) first, else `retry-after`. */
export function retryAfterOf(headers: { get(name: string): string | null } | undefined, nowMs: number): number | undefined {
  const ms = headers?.get('retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Number(ms);
  return parseRetryAfter(headers?.get('retry-after'), nowMs);
}

/** Seconds for the caller's own Retry-After header: at least 1, rounded up. */
export const retryAfterSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
