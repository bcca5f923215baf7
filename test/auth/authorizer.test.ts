import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { sha256Hex } from '../../lib/auth/tokens.js';
import { startSecretsManagerFake, type SecretsManagerFake } from '../support/secrets-manager-fake.js';

const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:api-tokens-AbCdEf';

const authorizerEvent = (authorization?: string): APIGatewayRequestAuthorizerEventV2 =>
  ({
    version: '2.0',
    type: 'REQUEST',
    routeArn: 'arn:aws:execute-api:us-east-1:000000000000:api/$default/POST/api/eligibility/v1',
    identitySource: authorization ? [authorization] : [],
    routeKey: 'POST /api/eligibility/v1',
    headers: authorization ? { authorization } : {},
  }) as unknown as APIGatewayRequestAuthorizerEventV2;

/**
 * The authorizer reads its token store from Secrets Manager in AWS. Here the real SDK (through
 * Powertools' getSecret) talks to a loopback Secrets Manager.
 */
describe('authorizer with the token store in Secrets Manager', () => {
  let fake: SecretsManagerFake;
  let handler: (event: APIGatewayRequestAuthorizerEventV2) => Promise<{ isAuthorized: boolean; context?: { clientId: string } }>;
  const saved = { ...process.env };

  beforeAll(async () => {
    fake = await startSecretsManagerFake({
      [SECRET_ARN]: JSON.stringify({ clients: [{ clientId: 'acme', tokenSha256: sha256Hex('acme-secret-token') }] }),
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

  it('allows a known token with its clientId and denies unknown or malformed ones', async () => {
    expect(await handler(authorizerEvent('Bearer acme-secret-token'))).toEqual({ isAuthorized: true, context: { clientId: 'acme' } });
    expect(await handler(authorizerEvent('Bearer someone-elses-token'))).toEqual({ isAuthorized: false });
    expect(await handler(authorizerEvent('Basic YWNtZTpzZWNyZXQ='))).toEqual({ isAuthorized: false });
    expect(await handler(authorizerEvent('acme-secret-token'))).toEqual({ isAuthorized: false });
    expect(await handler(authorizerEvent())).toEqual({ isAuthorized: false });
  });

  it('reads the secret once and serves later requests from the in-memory cache', async () => {
    const before = fake.calls.filter((c) => c.target === 'GetSecretValue').length;
    for (let i = 0; i < 20; i++) await handler(authorizerEvent('Bearer acme-secret-token'));
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
});
