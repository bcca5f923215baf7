import { logger } from '../../lib/logging/index.js';

/**
 * Captures what the service logs (Powertools writes JSON lines to stdout) while a test runs: `start`
 * turns INFO logging on and collects, `stop` puts stdout and the SILENT level back, `records` parses
 * every captured JSON line.
 */
export interface LogCapture {
  start(): void;
  stop(): void;
  records(): Array<Record<string, unknown>>;
}

export function logCapture(): LogCapture {
  let lines: string[] = [];
  let original: typeof process.stdout.write | undefined;
  return {
    start() {
      lines = [];
      original = process.stdout.write.bind(process.stdout);
      logger.setLogLevel('INFO');
      process.stdout.write = ((chunk: unknown) => {
        lines.push(String(chunk));
        return true;
      }) as typeof process.stdout.write;
    },
    stop() {
      if (original) process.stdout.write = original;
      original = undefined;
      logger.setLogLevel('SILENT');
    },
    records: () =>
      lines
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
