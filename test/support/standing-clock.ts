import { jest } from '@jest/globals';

/**
 * Stops the clock for a suite that runs the functions in process (the local API): `Date` stands still
 * until the test moves it, and every timer, `performance.now()` and the event loop run as usual. The
 * functions build their runtime on the system clock at import (`runtimeFromEnv()`), and the letter's
 * model call runs its retry policy on it too, so this is the one clock that reaches every upstream
 * budget without a test seam in lib/. A budget therefore ends only when the test says so, however slow
 * the machine (docs/testing.md#rules-the-suites-keep); retry waits are real timers, so they still end.
 * Jest installs it per test file, and `restore()` (or the file's end) puts the real clock back.
 */
export interface StandingClock {
  /** Moves the clock `ms` forward at once (a budget whose deadline it passes fires within a quarter second). */
  advance(ms: number): void;
  restore(): void;
}

/** Every fakeable API except `Date`: timers and the microtask queue stay real. */
const REAL = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

export function standingClock(): StandingClock {
  jest.useFakeTimers({ doNotFake: [...REAL], now: Date.now() });
  return {
    advance: (ms) => jest.setSystemTime(Date.now() + ms),
    restore: () => jest.useRealTimers(),
  };
}
