import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLocalEnvironment, type LocalEnvironment } from '../support/local-environment.js';
import { parseRateLimits, rateLimiter } from '../../infra/dev/local/rate-limits.js';
import { policyAllows, startLocalServer, type LocalServer } from '../../infra/dev/local/server.js';
import { MOCK_SET_1 } from '../support/events.js';

/** The local stand-ins for the gateway's usage-plan throttling and for its policy evaluation. */

describe('RATE_LIMITS', () => {
  it('parses clientId=N/s pairs and refuses anything else', () => {
    expect(parseRateLimits(undefined).size).toBe(0);
    expect(parseRateLimits('')).toEqual(new Map());
    expect(parseRateLimits('local=50/s, acme=0.5/s')).toEqual(
      new Map([
        ['local', 50],
        ['acme', 0.5],
      ]),
    );
    for (const bad of ['local=50', 'local=0/s', '=5/s', 'local=5/m', 'lo cal=5/s']) expect(() => parseRateLimits(bad)).toThrow(/RATE_LIMITS/);
  });

  it('is a token bucket per client: N at once, then N per second, with the wait in whole seconds', () => {
    let now = 0;
    const limiter = rateLimiter(
      new Map([
        ['acme', 2],
        ['slow', 0.25],
      ]),
      () => now,
    );
    expect([limiter.take('acme'), limiter.take('acme'), limiter.take('acme')]).toEqual([undefined, undefined, 1]);
    expect(limiter.take('unlimited')).toBeUndefined();
    now = 500; // half a second refills one request
    expect([limiter.take('acme'), limiter.take('acme')]).toEqual([undefined, 1]);
    expect([limiter.take('slow'), limiter.take('slow')]).toEqual([undefined, 4]);
  });
});

describe('policy evaluation', () => {
  const arn = 'arn:aws:execute-api:us-east-1:000000000000:local/local/POST/api/eligibility/v1';
  const doc = (...statements: ['Allow' | 'Deny', string][]) => ({
    Version: '2012-10-17',
    Statement: statements.map(([Effect, Resource]) => ({ Action: 'execute-api:Invoke', Effect, Resource })),
  });
  it('allows on a matching Allow (wildcards included) and lets an explicit Deny win', () => {
    expect(policyAllows(doc(['Allow', 'arn:aws:execute-api:us-east-1:000000000000:local/local/*']), arn)).toBe(true);
    expect(policyAllows(doc(['Allow', 'arn:aws:execute-api:us-east-1:000000000000:local/local/GET/*']), arn)).toBe(false);
    expect(policyAllows(doc(['Allow', arn], ['Deny', 'arn:aws:execute-api:us-east-1:000000000000:local/local/*']), arn)).toBe(false);
    expect(policyAllows(doc(), arn)).toBe(false);
    expect(policyAllows(undefined, arn)).toBe(false);
  });
});

describe('the local server with RATE_LIMITS', () => {
  let environment: LocalEnvironment;
  let server: LocalServer;
  const call = (token: string) =>
    fetch(`${server.url}/api/eligibility/v1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(MOCK_SET_1),
    });

  beforeAll(async () => {
    process.env.API_TOKENS = 'local=local-dev-token,acme=acme-token-0001';
    environment = await startLocalEnvironment(process.env);
    server = await startLocalServer({ port: 0, rateLimits: 'local=1/s' });
  }, 30_000);
  afterAll(async () => {
    await server?.close();
    await environment?.close();
  });

  it("answers the gateway's 429 with Retry-After once a client is over its limit, and only that client", async () => {
    expect((await call('acme-token-0001')).status).toBe(200); // loads the functions, so the burst below is fast
    const replies = await Promise.all(Array.from({ length: 10 }, () => call('local-dev-token')));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    const limited = replies.find((r) => r.status === 429);
    expect(limited).toBeDefined();
    expect(await limited!.json()).toEqual({ message: 'Too Many Requests' });
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited!.headers.get('x-request-id')).toBeTruthy();
    // acme has no limit configured.
    for (let i = 0; i < 5; i++) expect((await call('acme-token-0001')).status).toBe(200);
  });
});
