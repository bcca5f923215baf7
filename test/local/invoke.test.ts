import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** `npm run invoke`: only the handler's result on stdout (so `| jq` works), logs on stderr, clear errors. */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function invoke(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      `${ROOT}node_modules/.bin/tsx`,
      ['infra/dev/local/invoke.ts', ...args],
      { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '', POWERTOOLS_LOG_LEVEL: 'INFO' } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('npm run invoke', () => {
  it('prints only the result as JSON on stdout and the log lines on stderr', async () => {
    const run = await invoke(['eligibility', 'events/eligibility-mock-1.json']);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body).message).toBe('Mock Eligibility check successful.');
    expect(run.stderr).toContain('"message":"request"');
  }, 30_000);

  it('names a missing event file and exits 2 without a stack trace', async () => {
    const run = await invoke(['eligibility', 'events/no-such-event.json']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('event file not found: events/no-such-event.json');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 30_000);

  it('shows the usage for an unknown function', async () => {
    const run = await invoke(['nonesuch', 'events/eligibility-mock-1.json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown function "nonesuch"');
    expect(run.stderr).toContain('usage: npm run invoke');
  }, 30_000);
});
