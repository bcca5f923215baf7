import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { fixedClock } from '../../lib/config/clock.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { webhookSecretsOf } from '../../lib/auth/authorizer.js';
import { parseTokenSecret } from '../../lib/auth/tokens.js';
import { emptyOutcomes, type BatchRecord } from '../../lib/batch/types.js';
import { fileEnrollments, fileTokens } from '../../infra/tools/admin/backends.js';
import { runAdmin, type AdminBackends } from '../../infra/tools/admin/commands.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-delivery.js';

/** `webhook-secret create|rotate` (docs/batch.md#webhook-secrets): whsec_ secrets kept with the client's tokens, read by the webhook sender. */

let dir: string;
let receiver: WebhookReceiver;
/** A finished batch of the client `clinic`: the sender signs its webhook with the secrets the token store holds for clinic. */
const finished = (batchId: string): BatchRecord => ({
  batchId,
  clientId: 'clinic',
  status: 'COMPLETED',
  totalCount: 1,
  invalidCount: 0,
  counts: { pending: 0, inProgress: 0, completed: 1, failed: 0, cancelled: 0 },
  outcomes: emptyOutcomes(),
  createdAt: '2026-11-24T20:00:00.000Z',
  updatedAt: '2026-11-24T20:01:00.000Z',
});
let backends: AdminBackends;
const file = () => join(dir, '.local', 'tokens.json');
async function admin(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, backends, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => receiver.close());
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
    const sent = await receiver.deliver(finished('b-1'), (clientId) => webhookSecretsOf(clientId, { API_TOKENS_FILE: file() }));
    expect(new Webhook(secret).verify(sent.body, sent.headers)).toMatchObject({ type: 'eligibility.batch.completed' });

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
    const sent = await receiver.deliver(finished('b-2'), (clientId) => webhookSecretsOf(clientId, env));
    const payload = JSON.parse(sent.body) as unknown;
    // A receiver holding either secret verifies the same delivery.
    expect(new Webhook(rotated).verify(sent.body, sent.headers)).toEqual(payload);
    expect(new Webhook(old).verify(sent.body, sent.headers)).toEqual(payload);
    const later = fixedClock(Date.now() + 25 * 3600 * 1000);
    const after = await webhookSecretsOf('clinic', env, later);
    expect(after).toEqual([rotated]);
    // 25 h on, the store's clock has dropped the old secret; the delivery is signed now, so only the secret decides.
    const afterSent = await receiver.deliver(finished('b-3'), (clientId) => webhookSecretsOf(clientId, env, later));
    expect(() => new Webhook(old).verify(afterSent.body, afterSent.headers)).toThrow();
    expect(new Webhook(rotated).verify(afterSent.body, afterSent.headers)).toMatchObject({ data: { batchId: 'b-3' } });
    expect((await admin(['webhook-secret', 'create', '--client', 'nobody'])).err.join('\n')).toContain('holds no token');
  });
});
