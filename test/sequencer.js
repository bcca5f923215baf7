import Sequencer from '@jest/test-sequencer';

/**
 * Jest's order of test files (docs/testing.md#order), with one change for a run that has no timings yet
 * (a fresh clone, CI): the integration suites start before the unit ones. Files that failed last time still
 * come first.
 *
 * Jest runs the files it has timed longest first, so that no long file starts last and leaves the other
 * workers idle while it finishes. A file it has never timed is placed by its size instead, and a short file
 * can be slow: test/hostile/pdf-bombs.test.ts is 73 lines that inflate eleven bombs. On a fresh clone those
 * started last and the run ended on one busy worker. Every integration suite starts a server, a process,
 * Chromium or the CDK, and no unit suite does, so among the untimed files the integration ones go first
 * (each project's files still by size); once a run has timings, Jest's own order stands.
 */
export default class IntegrationFirstWhenUntimed extends Sequencer {
  sort(tests) {
    // Jest's order: the files that failed last time, then the untimed ones, then the timed ones longest first.
    const sorted = super.sort(tests);
    const failed = sorted.filter((test) => this.hasFailed(test));
    const untimed = sorted.filter((test) => !this.hasFailed(test) && test.duration == null);
    const timed = sorted.filter((test) => !this.hasFailed(test) && test.duration != null);
    const isIntegration = (test) => test.context.config.displayName?.name === 'integration';
    return [...failed, ...untimed.filter(isIntegration), ...untimed.filter((test) => !isIntegration(test)), ...timed];
  }
}
