import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLocalEnvironment, type LocalEnvironment } from '../../infra/local/environment.js';
import { startLocalServer, type LocalServer } from '../../infra/local/server.js';
import { MOCK_SET_1 } from '../support/events.js';

/**
 * The local gateway caches the authorizer's answer per Authorization value, for every route (the
 * policy names the whole stage), until its TTL: a revoked token keeps working until then, as in AWS
 * (docs/runtime.md#revocation). Here the TTL is 1 s instead of 240 s.
 */

let environment: LocalEnvironment;
let server: LocalServer;
const call = (path: string, token: string) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(MOCK_SET_1),
  });

beforeAll(async () => {
  process.env.API_TOKENS = 'local=local-dev-token,gone=soon-revoked-token';
  environment = await startLocalEnvironment(process.env);
  server = await startLocalServer({ port: 0, authorizerCacheSeconds: 1 });
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
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const revoked = await call('/api/eligibility/v1', 'soon-revoked-token');
    expect(revoked.status).toBe(403);
    expect(await revoked.json()).toEqual({ message: 'Forbidden' });
    expect((await call('/api/eligibility/v1', 'local-dev-token')).status).toBe(200);
  });
});
