import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback API Gateway (REST control plane) speaking its REST-JSON wire protocol: the four calls
 * the admin CLI makes for usage-plan keys, with the service's status codes, `x-amzn-ErrorType`
 * error header and its rules (an API key value of at least 20 characters; a key in at most one
 * plan of the same stage, which every plan here shares).
 */
export interface FakeApiKey {
  id: string;
  value: string;
  name?: string;
  description?: string;
  customerId?: string;
  enabled: boolean;
}

export interface ApiGatewayFake {
  endpoint: string;
  apiKeys: Map<string, FakeApiKey>;
  /** usage plan id → ids of the keys attached to it */
  plans: Map<string, Set<string>>;
  calls: { method: string; path: string; signed: boolean }[];
  /** When set, the next call matching `method path` answers this error. */
  failNext?: { method: string; pathPrefix: string; status: number; type: string };
  planOf(keyId: string): string | undefined;
  close(): Promise<void>;
}

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export async function startApiGatewayFake(planIds: string[]): Promise<ApiGatewayFake> {
  const fake = {
    apiKeys: new Map<string, FakeApiKey>(),
    plans: new Map(planIds.map((id) => [id, new Set<string>()])),
    calls: [] as ApiGatewayFake['calls'],
  } as ApiGatewayFake;
  fake.planOf = (keyId) => [...fake.plans].find(([, keys]) => keys.has(keyId))?.[0];

  const server: Server = createServer(async (req, res) => {
    const method = req.method ?? '';
    const path = decodeURIComponent((req.url ?? '').split('?')[0]!);
    fake.calls.push({ method, path, signed: String(req.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256') });
    const raw = await readBody(req);
    const reply = (status: number, body?: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    const error = (status: number, type: string, message: string) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazonaws.backplane.controlplane/`,
      });
      res.end(JSON.stringify({ message }));
    };
    const failure = fake.failNext;
    if (failure && method === failure.method && path.startsWith(failure.pathPrefix)) {
      fake.failNext = undefined;
      return error(failure.status, failure.type, 'injected failure');
    }
    let input: Record<string, unknown> = {};
    try {
      input = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      return error(400, 'BadRequestException', 'Invalid JSON');
    }

    const keyPath = /^\/apikeys\/([^/]+)$/.exec(path);
    const planKeysPath = /^\/usageplans\/([^/]+)\/keys$/.exec(path);
    const planKeyPath = /^\/usageplans\/([^/]+)\/keys\/([^/]+)$/.exec(path);
    if (method === 'POST' && path === '/apikeys') {
      const value = typeof input.value === 'string' ? input.value : randomBytes(20).toString('hex');
      if (value.length < 20) return error(400, 'BadRequestException', 'API Key value should be at least 20 characters');
      const key: FakeApiKey = {
        id: randomBytes(5).toString('hex'),
        value,
        name: input.name as string | undefined,
        description: input.description as string | undefined,
        customerId: input.customerId as string | undefined,
        enabled: input.enabled === true,
      };
      fake.apiKeys.set(key.id, key);
      return reply(201, { ...key, createdDate: Date.now() / 1000, lastUpdatedDate: Date.now() / 1000, stageKeys: [] });
    }
    if (method === 'DELETE' && keyPath) {
      const id = keyPath[1]!;
      if (!fake.apiKeys.delete(id)) return error(404, 'NotFoundException', 'Invalid API Key identifier specified');
      for (const keys of fake.plans.values()) keys.delete(id);
      return reply(202);
    }
    if (method === 'POST' && planKeysPath) {
      const keys = fake.plans.get(planKeysPath[1]!);
      if (!keys) return error(404, 'NotFoundException', 'Invalid Usage Plan ID specified');
      const keyId = String(input.keyId ?? '');
      if (input.keyType !== 'API_KEY') return error(400, 'BadRequestException', 'Invalid key type');
      const key = fake.apiKeys.get(keyId);
      if (!key) return error(404, 'NotFoundException', 'Invalid API Key identifier specified');
      if (fake.planOf(keyId) !== undefined) {
        return error(
          409,
          'ConflictException',
          `Usage Plan ${planKeysPath[1]} cannot be added because API Key ${keyId} cannot reference multiple Usage Plans with the same API Stage`,
        );
      }
      keys.add(keyId);
      return reply(201, { id: keyId, type: 'API_KEY', value: key.value, name: key.name });
    }
    if (method === 'DELETE' && planKeyPath) {
      const keys = fake.plans.get(planKeyPath[1]!);
      if (!keys) return error(404, 'NotFoundException', 'Invalid Usage Plan ID specified');
      if (!keys.delete(planKeyPath[2]!)) return error(404, 'NotFoundException', 'Invalid Usage Plan Key identifier specified');
      return reply(202);
    }
    return error(404, 'UnknownOperationException', `unsupported ${method} ${path}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
  return fake;
}
