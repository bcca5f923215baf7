import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { webhookSecretsOf } from '../../lib/auth/authorizer.js';
import { DEFAULT_API_TOKENS } from '../../infra/dev/local/environment.js';

/**
 * `npm run admin -- webhook-secret create --client local` (docs/batch.md#webhook-secrets) for the client
 * whose token `npm start` takes from API_TOKENS (or its dev default), not from .local/tokens.json: the
 * secret lands in the file, and the service (API_TOKENS plus the file, as `npm start` reads them) signs with it.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'admin-local-secret-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const admin = (args: string[], env: Record<string, string> = {}) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      join(ROOT, 'node_modules', '.bin', 'tsx'),
      [join(ROOT, 'infra', 'tools', 'admin', 'cli.ts'), ...args],
      { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });

describe('webhook-secret create for a client of API_TOKENS', () => {
  it('creates the secret of client "local" (the dev default list) in the local token file, where the service finds it', async () => {
    const created = await admin(['webhook-secret', 'create', '--client', 'local']);
    expect(created.stderr).toMatch(/API_TOKENS/);
    expect(created.code).toBe(0);
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^whsec_/);
    const file = join(dir, '.local', 'tokens.json');
    expect(await webhookSecretsOf('local', { API_TOKENS: DEFAULT_API_TOKENS, API_TOKENS_FILE: file })).toEqual([secret]);
    // Once made, it is the client's: a second create is refused.
    expect((await admin(['webhook-secret', 'create', '--client', 'local'])).code).not.toBe(0);
  });

  it('uses API_TOKENS when set, and still refuses a client no list or file knows', async () => {
    expect((await admin(['webhook-secret', 'create', '--client', 'front-desk'], { API_TOKENS: 'front-desk=fd-token-1' })).code).toBe(0);
    const unknown = await admin(['webhook-secret', 'create', '--client', 'nobody'], { API_TOKENS: 'front-desk=fd-token-1' });
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/holds no token/);
  });
});
