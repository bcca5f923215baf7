import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback Secrets Manager speaking its JSON 1.1 wire protocol (X-Amz-Target
 * secretsmanager.GetSecretValue / PutSecretValue), for tests that run the real AWS SDK against it
 * through AWS_ENDPOINT_URL_SECRETS_MANAGER or an explicit endpoint.
 */
export interface SecretsManagerFake {
  endpoint: string;
  secrets: Map<string, string>;
  calls: { target: string; secretId: string }[];
  /** When set, every call answers this HTTP status with an AWS error body. */
  failWith?: number;
  close(): Promise<void>;
}

export async function startSecretsManagerFake(initial: Record<string, string> = {}): Promise<SecretsManagerFake> {
  const fake = { secrets: new Map(Object.entries(initial)), calls: [] as { target: string; secretId: string }[] } as SecretsManagerFake;
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '').replace('secretsmanager.', '');
      const body = JSON.parse(raw || '{}') as { SecretId?: string; SecretString?: string };
      const secretId = body.SecretId ?? '';
      fake.calls.push({ target, secretId });
      const reply = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify(payload));
      };
      if (fake.failWith) return reply(fake.failWith, { __type: 'InternalServiceError', message: 'injected failure' });
      if (target === 'GetSecretValue') {
        const value = fake.secrets.get(secretId);
        if (value === undefined) return reply(400, { __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." });
        return reply(200, { ARN: secretId, Name: secretId, SecretString: value, VersionId: 'v1', CreatedDate: Date.now() / 1000 });
      }
      if (target === 'PutSecretValue') {
        if (!fake.secrets.has(secretId)) return reply(400, { __type: 'ResourceNotFoundException', message: 'not found' });
        fake.secrets.set(secretId, body.SecretString ?? '');
        return reply(200, { ARN: secretId, Name: secretId, VersionId: `v${fake.calls.length}` });
      }
      reply(400, { __type: 'InvalidRequestException', message: `unsupported ${target}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}
