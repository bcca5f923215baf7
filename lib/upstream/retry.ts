/**
 * The upstream hygiene rule (docs/api.md#upstreams), written once: one attempt plus at most one retry, only for
 * failures the attempt marks retryable, all inside one time budget. Every attempt gets an AbortSignal
 * that fires when the budget is spent, so a slow upstream can never hold the caller past it.
 */
import { fail, serviceError, type Result, type ServiceError } from '../errors/index.js';

/** An attempt that failed in a way worth trying again (HTTP 429/5xx, network error, AAA 42/80). */
export interface RetryableFailure<T> {
  retryable: true;
  /** The outcome when no retry happens (budget spent, or this was the last attempt). */
  error: ServiceError;
  /** Upstream's Retry-After; the retry happens only if this wait still fits in the budget. */
  retryAfterMs?: number;
  /**
   * When set, the outcome to return instead of `error` if no retry happens: e.g. a 271 whose AAA 42
   * should still reach the interpreter so the caller sees the payer's own rejection.
   */
  final?: Result<T>;
}

/** What one attempt reports: a final Result (success or a data error, never retried) or a retryable failure. */
export type Attempt<T> = Result<T> | RetryableFailure<T>;

export interface RetryOptions {
  /** Total wall time for all attempts and the wait between them (25 s under API Gateway's 30 s: docs/api.md#limits). */
  budgetMs?: number;
  maxAttempts?: number;
  /** Wait before attempt n+1 when upstream gave no Retry-After. */
  delayMs?: (attemptNo: number) => number;
  /** A retry is skipped when less than this would be left for it after the wait. */
  minAttemptMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Builds the per-attempt abort signal; defaults to AbortSignal.timeout. */
  timeoutSignal?: (ms: number) => AbortSignal;
}

export interface RetryOutcome<T> {
  outcome: Result<T>;
  attempts: number;
  elapsedMs: number;
}

export const DEFAULT_BUDGET_MS = 25_000;
const DEFAULT_MAX_ATTEMPTS = 2;
const DEFAULT_MIN_ATTEMPT_MS = 500;
const defaultDelay = (): number => 200;
const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const isRetryable = <T>(attempt: Attempt<T>): attempt is RetryableFailure<T> =>
  'retryable' in attempt && attempt.retryable === true;

/**
 * Runs `attempt` under the retry policy. An attempt that throws is treated as a network failure
 * (retryable), or as a budget timeout when its signal had already fired.
 */
export async function withRetry<T>(
  attempt: (signal: AbortSignal, attemptNo: number) => Promise<Attempt<T>>,
  options: RetryOptions = {},
): Promise<RetryOutcome<T>> {
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const delayMs = options.delayMs ?? defaultDelay;
  const minAttemptMs = options.minAttemptMs ?? DEFAULT_MIN_ATTEMPT_MS;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const timeoutSignal = options.timeoutSignal ?? ((ms: number) => AbortSignal.timeout(ms));

  const started = now();
  const remaining = (): number => budgetMs - (now() - started);
  const done = (outcome: Result<T>, attempts: number): RetryOutcome<T> => ({ outcome, attempts, elapsedMs: now() - started });

  for (let attemptNo = 1; ; attemptNo++) {
    const left = remaining();
    if (left <= 0) return done(fail(serviceError('UPSTREAM_TIMEOUT')), attemptNo - 1);

    const signal = timeoutSignal(left);
    let reported: Attempt<T>;
    try {
      reported = await attempt(signal, attemptNo);
    } catch {
      // A throw after the budget fired is the budget's doing; otherwise the upstream was unreachable.
      if (signal.aborted || remaining() <= 0) return done(fail(serviceError('UPSTREAM_TIMEOUT')), attemptNo);
      reported = { retryable: true, error: serviceError('PAYER_UNAVAILABLE') };
    }

    if (!isRetryable(reported)) return done(reported, attemptNo);

    const failure = reported;
    const giveUp = (): RetryOutcome<T> => done(failure.final ?? fail(failure.error), attemptNo);
    if (attemptNo >= maxAttempts) return giveUp();
    const wait = failure.retryAfterMs ?? delayMs(attemptNo);
    // Retry only if the wait plus a useful attempt still fit; a Retry-After beyond the budget means "not now".
    if (wait + minAttemptMs > remaining()) return giveUp();
    if (wait > 0) await sleep(wait);
  }
}

/** Parses an HTTP Retry-After header (delta-seconds or HTTP-date) into milliseconds. */
export function parseRetryAfter(header: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  if (header == null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
