import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback Secrets Manager speaking the JSON 1.1 protocol (POST /, X-Amz-Target
 * secretsmanager.<Operation>). Only GetSecretValue and PutSecretValue, with the real error shapes.
 */
export interface SecretsManagerFake {
  endpoint: string;
  secrets: Map<string, string>;
  calls: { target: string; signed: boolean }[];
  close(): Promise<void>;
}

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export async function startSecretsManagerFake(initial: Record<string, string> = {}): Promise<SecretsManagerFake> {
  const secrets = new Map(Object.entries(initial));
  const calls: SecretsManagerFake['calls'] = [];
  let version = 0;
  const server: Server = createServer(async (req, res) => {
    const target = String(req.headers['x-amz-target'] ?? '');
    calls.push({ target, signed: String(req.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256') });
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(JSON.stringify(body));
    };
    const input = JSON.parse((await readBody(req)) || '{}') as { SecretId?: string; SecretString?: string };
    const id = input.SecretId ?? '';
    if (!String(req.headers['content-type']).startsWith('application/x-amz-json-1.1')) {
      return reply(400, { __type: 'SerializationException', message: 'expected application/x-amz-json-1.1' });
    }
    switch (target) {
      case 'secretsmanager.GetSecretValue':
        if (!secrets.has(id)) return reply(400, { __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." });
        return reply(200, {
          ARN: id,
          Name: id.split(':').pop(),
          SecretString: secrets.get(id),
          VersionId: `v${version}`,
          VersionStages: ['AWSCURRENT'],
          CreatedDate: Date.now() / 1000,
        });
      case 'secretsmanager.PutSecretValue':
        if (!secrets.has(id)) return reply(400, { __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." });
        secrets.set(id, input.SecretString ?? '');
        version += 1;
        return reply(200, { ARN: id, Name: id.split(':').pop(), VersionId: `v${version}`, VersionStages: ['AWSCURRENT'] });
      default:
        return reply(400, { __type: 'UnknownOperationException', message: `unsupported ${target}` });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    secrets,
    calls,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
