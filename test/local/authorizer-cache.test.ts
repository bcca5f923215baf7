import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLocalEnvironment, type LocalEnvironment } from '../support/local-environment.js';
import { AUTHORIZER_CACHE_SECONDS } from '../../lib/auth/tokens.js';
import { startLocalServer, type LocalServer } from '../../infra/dev/local/server.js';
import { MOCK_SET_1 } from '../support/events.js';

/**
 * The local gateway caches the authorizer's answer per Authorization value, for every route (the
 * policy names the whole stage), until its TTL: a revoked token keeps working until then, as in AWS
 * (docs/runtime.md#revocation). The TTL is the real one; the cache's clock is stepped, not waited on.
 */

let environment: LocalEnvironment;
let server: LocalServer;
let clock = 1_000_000;
const call = (path: string, token: string) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(MOCK_SET_1),
  });

beforeAll(async () => {
  process.env.API_TOKENS = 'local=local-dev-token,gone=soon-revoked-token';
  environment = await startLocalEnvironment(process.env);
  server = await startLocalServer({ port: 0, now: () => clock });
}, 30_000);
afterAll(async () => {
  await server?.close();
  await environment?.close();
});

describe('authorizer cache', () => {
  it('serves a revoked token from the cache on every route until the TTL, then answers 403', async () => {
    expect((await call('/api/eligibility/v1', 'soon-revoked-token')).status).toBe(200);
    process.env.API_TOKENS = 'local=local-dev-token';
    // Cached: the same answer on another route too.
    expect((await call('/api/eligibility/v1', 'soon-revoked-token')).status).toBe(200);
    expect((await call('/api/no-such-route', 'soon-revoked-token')).status).toBe(404);
    // The last moment of the TTL still answers from the cache; the TTL itself does not.
    clock += AUTHORIZER_CACHE_SECONDS * 1000 - 1;
    expect((await call('/api/eligibility/v1', 'soon-revoked-token')).status).toBe(200);
    clock += 1;
    const revoked = await call('/api/eligibility/v1', 'soon-revoked-token');
    expect(revoked.status).toBe(403);
    expect(await revoked.json()).toEqual({ message: 'Forbidden' });
    expect((await call('/api/eligibility/v1', 'local-dev-token')).status).toBe(200);
  });
});
