import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { webhookSecretsOf } from '../../lib/auth/authorizer.js';
import { parseTokenSecret } from '../../lib/auth/tokens.js';
import { signedHeaders } from '../../lib/batch/webhook.js';
import { fileEnrollments, fileTokens } from '../../infra/admin/backends.js';
import { runAdmin, type AdminBackends } from '../../infra/admin/commands.js';

/** `webhook-secret create|rotate` (docs/batch.md#webhook-secrets): whsec_ secrets kept with the client's tokens, read by the webhook sender. */

let dir: string;
let backends: AdminBackends;
const file = () => join(dir, '.local', 'tokens.json');
async function admin(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, backends, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'admin-webhook-'));
  backends = { tokens: () => fileTokens(file()), enrollments: () => fileEnrollments(join(dir, '.local', 'enrollments.json')) };
});
// Each test's directory holds its tokens file (hashes and webhook secrets): removed after every test, not only the last.
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe('webhook secrets', () => {
  it('creates a whsec_ secret on every token entry of the client, which the webhook sender reads and standardwebhooks accepts', async () => {
    await admin(['token', 'create', '--client', 'clinic']);
    await admin(['token', 'create', '--client', 'other']);
    const created = await admin(['webhook-secret', 'create', '--client', 'clinic']);
    expect(created.code).toBe(0);
    const secret = created.out[0]!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const clients = parseTokenSecret(await readFile(file(), 'utf8'));
    expect(clients.filter((c) => c.clientId === 'clinic').map((c) => c.webhookSecret)).toEqual([secret]);
    expect(clients.find((c) => c.clientId === 'other')?.webhookSecret).toBeUndefined();
    expect(await webhookSecretsOf('clinic', { API_TOKENS_FILE: file() })).toEqual([secret]);

    // A later token of the client keeps the secret; the sender's signature verifies with it.
    await admin(['token', 'create', '--client', 'clinic']);
    expect(
      parseTokenSecret(await readFile(file(), 'utf8'))
        .filter((c) => c.clientId === 'clinic')
        .map((c) => c.webhookSecret),
    ).toEqual([secret, secret]);
    const payload = JSON.stringify({ type: 'eligibility.batch.completed' });
    expect(new Webhook(secret).verify(payload, signedHeaders(secret, 'msg_1', new Date(), payload))).toEqual({ type: 'eligibility.batch.completed' });

    expect((await admin(['webhook-secret', 'create', '--client', 'clinic'])).code).toBe(1);
  });

  it('rotates: both secrets sign for 24 h, then only the new one', async () => {
    await admin(['token', 'create', '--client', 'clinic']);
    expect((await admin(['webhook-secret', 'rotate', '--client', 'clinic'])).code).toBe(1);
    const old = (await admin(['webhook-secret', 'create', '--client', 'clinic'])).out[0]!;
    const rotated = (await admin(['webhook-secret', 'rotate', '--client', 'clinic'])).out[0]!;
    expect(rotated).not.toBe(old);
    const env = { API_TOKENS_FILE: file() };
    const during = await webhookSecretsOf('clinic', env);
    expect(during).toEqual([rotated, old]);
    const payload = '{}';
    const headers = signedHeaders(during, 'msg_2', new Date(), payload);
    // A receiver holding either secret verifies the same delivery.
    expect(new Webhook(rotated).verify(payload, headers)).toEqual({});
    expect(new Webhook(old).verify(payload, headers)).toEqual({});
    const later = new Date(Date.now() + 25 * 3600 * 1000);
    const after = await webhookSecretsOf('clinic', env, later);
    expect(after).toEqual([rotated]);
    expect(() => new Webhook(old).verify(payload, signedHeaders(after, 'msg_3', new Date(), payload))).toThrow();
    expect((await admin(['webhook-secret', 'create', '--client', 'nobody'])).err.join('\n')).toContain('holds no token');
  });
});
