import { spawn } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';

/** `npm start`'s entry point as a real process: banner with URL and dev token, then a clean stop. */

const ROOT = new URL('../../', import.meta.url).pathname;

function start(): Promise<{ url: string; banner: string; stop(signal: NodeJS.Signals): Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/dev/local/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', NODE_OPTIONS: '', POWERTOOLS_LOG_LEVEL: 'SILENT' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let banner = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner in time: ${banner}`)), 15_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      banner += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner);
      if (match && banner.includes('Try: curl')) {
        clearTimeout(timer);
        resolve({
          url: match[1]!,
          banner,
          stop: (signal) => {
            child.kill(signal);
            return exited;
          },
        });
      }
    });
    child.on('exit', (code) => reject(new Error(`exited early with ${code}: ${banner}`)));
  });
}

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('serves, prints URL and dev token, and exits 0 on %s', async (signal) => {
    const server = await start();
    expect(server.banner).toContain('local-dev-token');
    expect(server.banner).toMatch(/sandbox clearinghouse/);
    const reply = await fetch(`${server.url}/api/eligibility/v1`, {
      method: 'POST',
      headers: { authorization: 'Bearer local-dev-token', 'content-type': 'application/json' },
      body: JSON.stringify({
        patientFirstName: 'John',
        patientLastName: 'Doe',
        patientDOB: '01-01-1980',
        patientMemberId: '123456789',
        dateOfCoverage: '01-01-2025',
        payerId: 'PAYER001',
        providerId: 'PROVIDER001',
        mockRequest: true,
      }),
    });
    expect(reply.status).toBe(200);
    expect(await server.stop(signal)).toBe(0);
  });
});
