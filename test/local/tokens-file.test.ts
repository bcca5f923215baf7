import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileTokens } from '../../infra/tools/admin/backends.js';
import { runAdmin, type AdminBackends } from '../../infra/tools/admin/commands.js';
import { startLocalEnvironment } from '../support/local-environment.js';
import { startLocalServer } from '../../infra/dev/local/server.js';
import { loadClients } from '../../lib/auth/authorizer.js';
import { MOCK_SET_1 } from '../support/events.js';

/** `npm start` accepts tokens made by `npm run admin -- token create` (.local/tokens.json) besides API_TOKENS. */

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function createToken(file: string, client: string): Promise<string> {
  const out: string[] = [];
  const backends = { tokens: () => fileTokens(file), enrollments: () => undefined as never } as AdminBackends;
  expect(await runAdmin(['token', 'create', '--client', client], backends, { out: (l) => out.push(l), err: () => undefined })).toBe(0);
  return out[0]!;
}

describe('API_TOKENS_FILE', () => {
  it("adds the file's clients to API_TOKENS, re-reading it so a new token works at once", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tokens-'));
    dirs.push(dir);
    const file = join(dir, 'tokens.json');
    await createToken(file, 'acme');
    const env = { API_TOKENS: 'local=local-dev-token', API_TOKENS_FILE: file };
    expect((await loadClients(env)).map((c) => c.clientId)).toEqual(['local', 'acme']);
    await createToken(file, 'zeta');
    expect((await loadClients(env)).map((c) => c.clientId)).toEqual(['local', 'acme', 'zeta']);
    expect((await loadClients({ API_TOKENS_FILE: file })).map((c) => c.clientId)).toEqual(['acme', 'zeta']);
  });

  it('reads the default file as soon as the CLI first writes it, with the server already running (no restart)', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cwd-'));
    dirs.push(cwd);
    const file = join(cwd, '.local', 'tokens.json');
    const env: Record<string, string | undefined> = { ...process.env, API_TOKENS: undefined, API_TOKENS_FILE: undefined, API_TOKENS_FILE_OPTIONAL: undefined };
    const environment = await startLocalEnvironment(env, { cwd });
    const saved = { ...process.env };
    Object.assign(process.env, { API_TOKENS: env.API_TOKENS, API_TOKENS_FILE: env.API_TOKENS_FILE, API_TOKENS_FILE_OPTIONAL: env.API_TOKENS_FILE_OPTIONAL });
    const server = await startLocalServer({ port: 0 });
    try {
      expect(environment.notes.join('\n')).toContain(`also accepting the tokens in ${file} (npm run admin -- token create) once it exists`);
      const call = (bearer: string) =>
        fetch(`${server.url}/api/eligibility/v1`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify(MOCK_SET_1),
        });
      // No file yet: the dev token works, the store is readable (403, not 500) for anything else.
      expect((await call('local-dev-token')).status).toBe(200);
      expect((await call('not-a-token')).status).toBe(403);
      const token = await createToken(file, 'acme');
      expect((await call(token)).status).toBe(200);
    } finally {
      await server.close();
      await environment.close();
      process.env = saved;
    }
  });

  it('a file the operator names must exist; only the default one may be missing', async () => {
    await expect(loadClients({ API_TOKENS: 'a=local-dev-token', API_TOKENS_FILE: '/nonexistent/tokens.json' })).rejects.toThrow();
    const clients = await loadClients({ API_TOKENS: 'a=local-dev-token', API_TOKENS_FILE: '/nonexistent/tokens.json', API_TOKENS_FILE_OPTIONAL: 'true' });
    expect(clients.map((c) => c.clientId)).toEqual(['a']);
  });

  it('fails (500 in the gateway, never a cached denial) when the file is unreadable or malformed', async () => {
    await expect(loadClients({ API_TOKENS: 'a=b', API_TOKENS_FILE: '/nonexistent/tokens.json' })).rejects.toThrow();
  });

  it('the local server accepts a token the admin CLI wrote', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tokens-'));
    dirs.push(dir);
    const file = join(dir, 'tokens.json');
    const token = await createToken(file, 'local');
    const env: Record<string, string | undefined> = { ...process.env, API_TOKENS: undefined, API_TOKENS_FILE: file };
    const environment = await startLocalEnvironment(env);
    Object.assign(process.env, { API_TOKENS: env.API_TOKENS, API_TOKENS_FILE: env.API_TOKENS_FILE });
    const server = await startLocalServer({ port: 0 });
    try {
      expect(environment.notes.join('\n')).toContain(`also accepting the tokens in ${file}`);
      const call = (bearer: string) =>
        fetch(`${server.url}/api/eligibility/v1`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify(MOCK_SET_1),
        });
      expect((await call(token)).status).toBe(200);
      expect((await call('local-dev-token')).status).toBe(200);
      expect((await call('not-a-token')).status).toBe(403);
    } finally {
      await server.close();
      await environment.close();
      delete process.env.API_TOKENS_FILE;
    }
  });
});
