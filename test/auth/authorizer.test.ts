import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { authorizerEvent as restAuthorizerEvent } from '../../infra/dev/local/events.js';
import { allowPolicy, denyPolicy } from '../../lib/auth/policy.js';
import { sha256Hex } from '../../lib/auth/tokens.js';
import { logCapture } from '../support/log-capture.js';
import { startSecretsManagerFake, type SecretsManagerFake } from '../support/secrets-manager-fake.js';

const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:api-tokens-AbCdEf';
const METHOD_ARN = 'arn:aws:execute-api:local:000000000000:local/local/POST/api/eligibility/v1';
const WILDCARD = 'arn:aws:execute-api:us-east-1:000000000000:local/local/*';

/** A REST REQUEST authorizer event; header names in whatever casing the client used. */
const authorizerEvent = (headers: [string, string][] = []): APIGatewayRequestAuthorizerEvent =>
  restAuthorizerEvent({ method: 'POST', path: '/api/eligibility/v1', resource: '/api/eligibility/v1', rawHeaders: headers, requestId: 'test' });

const allow = (clientId: string, usageIdentifierKey?: string): APIGatewayAuthorizerResult => ({
  principalId: clientId,
  policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: WILDCARD }] },
  context: { clientId },
  ...(usageIdentifierKey ? { usageIdentifierKey } : {}),
});
const deny: APIGatewayAuthorizerResult = {
  principalId: 'unknown',
  policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: WILDCARD }] },
};

describe('the policy resource', () => {
  /** The Resource of the one statement of the Allow and of the Deny policy for this method ARN; the two agree. */
  const resourceOf = (methodArn: string): unknown => {
    const [allowed, denied] = [allowPolicy({ clientId: 'acme', tokenSha256: sha256Hex('acme-token') }, methodArn), denyPolicy(methodArn)];
    expect(denied.policyDocument.Statement).toEqual([{ ...allowed.policyDocument.Statement[0], Effect: 'Deny' }]);
    return (allowed.policyDocument.Statement[0] as { Resource: unknown }).Resource;
  };

  it('widens a method ARN to every method of its stage, so one cached answer serves every route', () => {
    expect(resourceOf(METHOD_ARN)).toBe('arn:aws:execute-api:local:000000000000:local/local/*');
    expect(resourceOf('arn:aws:execute-api:eu-west-1:1:abc/prod/GET/')).toBe('arn:aws:execute-api:eu-west-1:1:abc/prod/*');
  });
});

/**
 * The authorizer reads its token store from Secrets Manager in AWS. Here the real SDK (through
 * Powertools' getSecret) talks to a loopback Secrets Manager.
 */
describe('REST REQUEST authorizer with the token store in Secrets Manager', () => {
  let fake: SecretsManagerFake;
  let handler: (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;
  const saved = { ...process.env };

  beforeAll(async () => {
    fake = await startSecretsManagerFake({
      [SECRET_ARN]: JSON.stringify({
        clients: [
          { clientId: 'acme', tokenSha256: sha256Hex('acme-secret-token'), usageIdentifierKey: 'acme-usage-plan-key-value-0123456789' },
          { clientId: 'legacy', tokenSha256: sha256Hex('legacy-secret-token') },
        ],
      }),
    });
    Object.assign(process.env, {
      API_TOKENS_SECRET_ARN: SECRET_ARN,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: fake.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
    });
    delete process.env.API_TOKENS;
    ({ handler } = (await import('../../functions/authorizer/index.js')) as never);
  });

  afterAll(async () => {
    process.env = saved;
    await fake.close();
  });

  it('allows a known token on the stage wildcard with clientId and the usage-plan key', async () => {
    expect(await handler(authorizerEvent([['Authorization', 'Bearer acme-secret-token']]))).toEqual(allow('acme', 'acme-usage-plan-key-value-0123456789'));
    // Header names arrive in the client's casing.
    expect(await handler(authorizerEvent([['authorization', 'Bearer acme-secret-token']]))).toEqual(allow('acme', 'acme-usage-plan-key-value-0123456789'));
    // An entry written before usage plans has no key: allowed, without usageIdentifierKey.
    expect(await handler(authorizerEvent([['AUTHORIZATION', 'Bearer legacy-secret-token']]))).toEqual(allow('legacy'));
  });

  it('denies unknown or malformed tokens with a Deny policy (the gateway answers 403)', async () => {
    for (const header of ['Bearer someone-elses-token', 'Basic YWNtZTpzZWNyZXQ=', 'acme-secret-token', 'Bearer ']) {
      expect(await handler(authorizerEvent([['Authorization', header]]))).toEqual(deny);
    }
  });

  it('denies an Authorization sent more than once, whichever copy is good (the cache key and the decision never differ)', async () => {
    const copies: [string, string][][] = [
      [
        ['Authorization', 'Bearer someone-elses-token'],
        ['authorization', 'Bearer acme-secret-token'],
      ],
      [
        ['authorization', 'Bearer acme-secret-token'],
        ['Authorization', 'Bearer someone-elses-token'],
      ],
      [
        ['Authorization', 'Bearer acme-secret-token'],
        ['Authorization', 'Bearer acme-secret-token'],
      ],
    ];
    for (const headers of copies) expect(await handler(authorizerEvent(headers))).toEqual(deny);
  });

  describe('log lines', () => {
    const capture = logCapture();
    beforeEach(() => capture.start());
    afterEach(() => capture.stop());

    it("a denial carries the request id (the caller's valid X-Request-Id, else the gateway's) and never the token", async () => {
      await handler(
        authorizerEvent([
          ['Authorization', 'Bearer someone-elses-token'],
          ['X-Request-Id', 'caller-id-1'],
        ]),
      );
      await handler(authorizerEvent([['Authorization', 'Bearer someone-elses-token']]));
      await handler(
        authorizerEvent([
          ['Authorization', 'Bearer a-token'],
          ['authorization', 'Bearer b-token'],
          ['X-Request-Id', 'caller-id-2'],
        ]),
      );
      const denials = capture.records().filter((record) => String(record.message).startsWith('authorizer denied'));
      expect(denials.map((record) => record.requestId)).toEqual(['caller-id-1', 'test', 'caller-id-2']);
      expect(JSON.stringify(denials)).not.toMatch(/someone-elses-token|a-token|b-token/);
    });
  });

  it('throws "Unauthorized" when the header is missing (the gateway answers 401)', async () => {
    await expect(handler(authorizerEvent())).rejects.toThrow(/^Unauthorized$/);
    await expect(handler(authorizerEvent([['Authorization', '  ']]))).rejects.toThrow(/^Unauthorized$/);
  });

  it('reads the secret once and serves later requests from the in-memory cache', async () => {
    const before = fake.calls.filter((c) => c.target === 'GetSecretValue').length;
    for (let i = 0; i < 20; i++) await handler(authorizerEvent([['Authorization', 'Bearer acme-secret-token']]));
    expect(fake.calls.filter((c) => c.target === 'GetSecretValue').length - before).toBe(0);
    expect(before).toBe(1);
  });
});

describe('authorizer when the token store cannot be read', () => {
  it('throws (API Gateway answers 500 and caches nothing) instead of denying', async () => {
    const { loadClients } = await import('../../lib/auth/authorizer.js');
    await expect(loadClients({})).rejects.toThrow(/no API token store/);
    const fake = await startSecretsManagerFake({});
    fake.failWith = 500;
    try {
      await expect(
        loadClients({ API_TOKENS_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:missing', AWS_ENDPOINT_URL_SECRETS_MANAGER: fake.endpoint }),
      ).rejects.toThrow();
    } finally {
      await fake.close();
    }
  });

  it('the handler throws something other than "Unauthorized", so it is a 500, not a 401', async () => {
    const saved = { ...process.env };
    delete process.env.API_TOKENS;
    delete process.env.API_TOKENS_SECRET_ARN;
    try {
      const { handler } = await import('../../functions/authorizer/index.js');
      await expect(handler(authorizerEvent([['Authorization', 'Bearer acme-secret-token']]))).rejects.toThrow(/token store unavailable/);
    } finally {
      process.env = saved;
    }
  });
});
