/**
 * When a transiently failed item is tried again (docs/batch.md#engine): 30 s after the first
 * failure, doubling to at most 15 min, for up to BATCH_RETRY_HOURS from the item's first attempt;
 * past that the item fails with its last error. Pure: the clock is the caller's.
 */

const FIRST_DELAY_SECONDS = 30;
const MAX_DELAY_SECONDS = 15 * 60;

/** Seconds to wait after the `attempt`-th attempt failed (1-based). */
const backoffSeconds = (attempt: number): number => Math.min(MAX_DELAY_SECONDS, FIRST_DELAY_SECONDS * 2 ** Math.max(0, Math.min(attempt - 1, 20)));

/** The next try's delay, or undefined when it would fall outside the retry window. */
export function nextTry(attempt: number, firstAttemptAtMs: number, nowMs: number, retryHours: number): number | undefined {
  const delay = backoffSeconds(attempt);
  return nowMs + delay * 1000 <= firstAttemptAtMs + retryHours * 3600 * 1000 ? delay : undefined;
}
