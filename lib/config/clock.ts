/**
 * The one source of time in lib/ (docs/architecture.md#time). Every module that reads the time takes a
 * `Clock` (default {@link systemClock}), so a test sets "now" once and every rule, budget, timestamp and
 * back-off reads the same instant; nothing in lib/ calls `Date.now()` or `new Date()` for the current time.
 *
 * @example
 * ```ts
 * import { fixedClock, type Clock } from '../config/index.js';
 * const clock: Clock = fixedClock('2025-06-01T12:00:00Z');
 * new Date(clock.now()).toISOString(); // '2025-06-01T12:00:00.000Z'
 * ```
 */
export interface Clock {
  /** Milliseconds since the Unix epoch, as `Date.now()`. */
  now(): number;
}

/** The machine's clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock stopped at one instant (an ISO 8601 text, a Date or epoch milliseconds): for tests and replays. */
export const fixedClock = (at: string | number | Date): Clock => {
  const ms = new Date(at).getTime();
  return { now: () => ms };
};
