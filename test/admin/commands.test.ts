import { describe, it, expect, beforeAll, afterAll, beforeEach } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { matchToken, parseTokenSecret, REVOCATION_SECONDS, sha256Hex } from '../../lib/auth/tokens.js';
import { apiGatewayKeys, parseUsagePlanIds } from '../../infra/tools/admin/api-keys.js';
import { dynamoEnrollments, fileEnrollments, fileTokens, secretsManagerTokens } from '../../infra/tools/admin/backends.js';
import { EXIT, runAdmin, type AdminBackends } from '../../infra/tools/admin/commands.js';
import { createEnrollmentTable, localDynamoClient, startDynalite, startLocalEnrollments, type LocalDynamo } from '../../infra/dev/local/enrollments.js';
import { startApiGatewayFake, type ApiGatewayFake } from '../support/api-gateway-fake.js';
import { startSecretsManagerFake, type SecretsManagerFake } from './secrets-manager-fake.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:api-tokens-AbCdEf';
const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };

const PLAN_IDS = { standard: 'std123', high: 'hi456' };
const USAGE_PLAN_IDS = `standard=${PLAN_IDS.standard},high=${PLAN_IDS.high}`;

let fake: SecretsManagerFake;
let gateway: ApiGatewayFake;
let apigw: APIGatewayClient;
let dynamo: LocalDynamo;
let doc: DynamoDBDocumentClient;
let secrets: SecretsManagerClient;
let aws: AdminBackends;
let tableCount = 0;

beforeAll(async () => {
  fake = await startSecretsManagerFake();
  gateway = await startApiGatewayFake(Object.values(PLAN_IDS));
  apigw = new APIGatewayClient({ endpoint: gateway.endpoint, region: 'us-east-1', credentials });
  dynamo = await startDynalite();
  doc = localDynamoClient(dynamo.endpoint);
  secrets = new SecretsManagerClient({ endpoint: fake.endpoint, region: 'us-east-1', credentials });
});

afterAll(async () => {
  secrets.destroy();
  apigw.destroy();
  doc.destroy();
  await Promise.all([fake.close(), gateway.close(), dynamo.close()]);
});

beforeEach(async () => {
  fake.secrets.set(SECRET_ARN, '{"clients":[]}');
  const table = `enrollments-${++tableCount}`;
  await createEnrollmentTable(doc, table);
  gateway.apiKeys.clear();
  for (const keys of gateway.plans.values()) keys.clear();
  gateway.calls.length = 0;
  aws = {
    tokens: () => secretsManagerTokens(secrets, SECRET_ARN),
    enrollments: () => dynamoEnrollments(doc, table),
    apiKeys: () => apiGatewayKeys(apigw, () => parseUsagePlanIds(USAGE_PLAN_IDS)),
  };
});

async function admin(argv: string[], backends: AdminBackends = aws) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, backends, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err: err.join('\n') };
}
const storedClients = () => parseTokenSecret(fake.secrets.get(SECRET_ARN)!);

describe('token commands against Secrets Manager', () => {
  it('creates a token, prints it once, and stores only its SHA-256 digest', async () => {
    const { code, out, err } = await admin(['token', 'create', '--client', 'acme']);
    expect(code).toBe(EXIT.OK);
    expect(out).toHaveLength(1);
    const token = out[0]!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(err).not.toContain(token);
    const raw = fake.secrets.get(SECRET_ARN)!;
    expect(raw).not.toContain(token);
    const [stored] = storedClients();
    expect(stored).toEqual({
      clientId: 'acme',
      tokenSha256: sha256Hex(token),
      plan: 'standard',
      apiKeyId: expect.any(String),
      usageIdentifierKey: expect.any(String),
    });
    // The client's usage-plan key exists in API Gateway with exactly the value the authorizer will return, on the standard plan.
    expect(gateway.apiKeys.get(stored!.apiKeyId!)).toMatchObject({ value: stored!.usageIdentifierKey, enabled: true, customerId: 'acme' });
    expect(stored!.usageIdentifierKey).toMatch(/^[0-9a-f]{40}$/);
    expect(gateway.planOf(stored!.apiKeyId!)).toBe(PLAN_IDS.standard);
    expect(gateway.calls.every((c) => c.signed)).toBe(true);
    expect(err).toContain('standard plan');
    // The authorizer's own lookup accepts it.
    expect(matchToken(token, storedClients())?.clientId).toBe('acme');
    expect(fake.calls.every((c) => c.signed)).toBe(true);
    expect(fake.calls.map((c) => c.target)).toEqual(expect.arrayContaining(['secretsmanager.GetSecretValue', 'secretsmanager.PutSecretValue']));
  });

  it('issues distinct tokens sharing one usage-plan key, lists each token with its plan and digest prefix, and revokes one by digest prefix or all (the key goes with the last)', async () => {
    const first = (await admin(['token', 'create', '--client', 'acme'])).out[0]!;
    const second = await admin(['token', 'create', '--client', 'acme']);
    expect(second.err).toContain('now holds 2 tokens');
    await admin(['token', 'create', '--client', 'beta']);
    expect(second.out[0]).not.toBe(first);

    const list = await admin(['token', 'list']);
    const digests = storedClients().map((c) => c.tokenSha256);
    const acmeDigests = [sha256Hex(first), sha256Hex(second.out[0]!)];
    expect(list.out).toEqual([...acmeDigests.map((d) => `acme\tstandard\t${d.slice(0, 12)}`), `beta\tstandard\t${digests[2]!.slice(0, 12)}`]);
    expect(list.out.join('\n')).not.toMatch(/[0-9a-f]{13}/);
    // The prefix the list shows is one --digest takes.
    expect(second.err).toContain(`digest ${sha256Hex(second.out[0]!).slice(0, 12)}`);

    // Both of acme's tokens share one usage-plan key; beta has its own.
    const acmeKey = storedClients().find((c) => c.clientId === 'acme')!.apiKeyId!;
    expect(
      new Set(
        storedClients()
          .filter((c) => c.clientId === 'acme')
          .map((c) => c.apiKeyId),
      ),
    ).toEqual(new Set([acmeKey]));
    expect(gateway.apiKeys.size).toBe(2);

    const one = await admin(['token', 'revoke', '--client', 'acme', '--digest', sha256Hex(first).slice(0, 10)]);
    expect(one.code).toBe(EXIT.OK);
    expect(one.err).toContain(`within ${REVOCATION_SECONDS / 60} minutes`);
    expect(one.err).toContain('60 s');
    expect(one.err).toContain('240 s');
    expect(matchToken(first, storedClients())?.clientId).toBeUndefined();
    expect(matchToken(second.out[0]!, storedClients())?.clientId).toBe('acme');
    // The client still holds a token, so its key stays.
    expect(gateway.apiKeys.has(acmeKey)).toBe(true);

    const all = await admin(['token', 'revoke', '--client', 'acme']);
    expect(all.code).toBe(EXIT.OK);
    expect(all.err).toContain(`Deleted the client's usage-plan key ${acmeKey}`);
    expect(storedClients().map((c) => c.clientId)).toEqual(['beta']);
    expect(gateway.apiKeys.has(acmeKey)).toBe(false);
    expect(gateway.planOf(acmeKey)).toBeUndefined();
    expect(gateway.apiKeys.size).toBe(1);
    const again = await admin(['token', 'revoke', '--client', 'acme']);
    expect(again.code).toBe(EXIT.FAILED);
    expect(again.err).toContain('no token of client "acme"');
  });

  it('rejects bad input with exit code 2 and the usage text', async () => {
    for (const argv of [
      ['token', 'create'],
      ['token', 'create', '--client', 'has space'],
      ['token', 'create', '--client', 'a=b'],
      ['token', 'create', '--client', 'acme', '--npi', '1234567893'],
      ['token', 'create', '--client', 'acme', '--plan', 'gold'],
      ['token', 'revoke', '--client', 'acme', '--plan', 'high'],
      ['token', 'revoke', '--client', 'acme', '--digest', 'xyz'],
      ['token', 'explode'],
      [],
      ['token', 'list', '--bogus'],
    ]) {
      const result = await admin(argv);
      expect({ argv, code: result.code }).toEqual({ argv, code: EXIT.USAGE });
      expect(result.err).toContain('usage: npm run admin');
    }
    expect(storedClients()).toEqual([]);
    expect(gateway.apiKeys.size).toBe(0);
    // A prefix too short to name one token says how long it must be.
    const short = await admin(['token', 'revoke', '--client', 'acme', '--digest', 'abc1234']);
    expect([short.code, short.err.split('\n')[0]]).toEqual([
      EXIT.USAGE,
      "error: --digest needs at least 8 hex characters of the token's digest (token list shows the first 12)",
    ]);
    expect((await admin(['--help'])).out.join('\n')).toContain('--digest <first 8 or more hex characters of the digest>');
  });

  it("moves the client's one key between plans with --plan, and keeps the plan for later tokens", async () => {
    await admin(['token', 'create', '--client', 'acme']);
    const key = storedClients()[0]!.apiKeyId!;
    const moved = await admin(['token', 'create', '--client', 'acme', '--plan', 'high']);
    expect(moved.code).toBe(EXIT.OK);
    expect(moved.err).toContain(`Moved the client's usage-plan key ${key} from the standard plan to the high plan`);
    expect(gateway.apiKeys.size).toBe(1);
    expect(gateway.planOf(key)).toBe(PLAN_IDS.high);
    expect(storedClients().map((c) => [c.plan, c.apiKeyId])).toEqual([
      ['high', key],
      ['high', key],
    ]);
    // Without --plan a new token keeps the client's plan.
    await admin(['token', 'create', '--client', 'acme']);
    expect(storedClients().map((c) => c.plan)).toEqual(['high', 'high', 'high']);
    expect(gateway.planOf(key)).toBe(PLAN_IDS.high);
  });

  it('gives a client created before plans existed a key with its next token, for all its tokens', async () => {
    fake.secrets.set(SECRET_ARN, JSON.stringify({ clients: [{ clientId: 'old', tokenSha256: sha256Hex('old-token-123') }] }));
    expect((await admin(['token', 'create', '--client', 'old', '--plan', 'high'])).code).toBe(EXIT.OK);
    const stored = storedClients();
    expect(stored).toHaveLength(2);
    expect(new Set(stored.map((c) => c.apiKeyId)).size).toBe(1);
    expect(stored.every((c) => c.plan === 'high' && c.usageIdentifierKey === gateway.apiKeys.get(c.apiKeyId!)!.value)).toBe(true);
    expect(gateway.planOf(stored[0]!.apiKeyId!)).toBe(PLAN_IDS.high);
  });

  it('leaves nothing behind when API Gateway or the token store fails half-way', async () => {
    // Attaching the key to its plan fails (a wrong plan id): the fresh key is deleted, no token is stored.
    gateway.failNext = { method: 'POST', pathPrefix: '/usageplans/', status: 404, type: 'NotFoundException' };
    const refused = await admin(['token', 'create', '--client', 'acme']);
    expect(refused.code).toBe(EXIT.FAILED);
    expect(refused.err).toContain('NotFoundException');
    expect(refused.out).toEqual([]);
    expect(gateway.apiKeys.size).toBe(0);
    expect(storedClients()).toEqual([]);

    // The token store refuses the write: the key made for it is deleted again.
    const failingStore: AdminBackends = {
      ...aws,
      tokens: () => ({ ...secretsManagerTokens(secrets, SECRET_ARN), write: async () => Promise.reject(new Error('AccessDeniedException: not allowed')) }),
    };
    const unwritten = await admin(['token', 'create', '--client', 'acme'], failingStore);
    expect(unwritten.code).toBe(EXIT.FAILED);
    expect(unwritten.out).toEqual([]);
    expect(gateway.apiKeys.size).toBe(0);

    // Missing plan ids: a clear error before anything is created.
    const noPlans: AdminBackends = { ...aws, apiKeys: () => apiGatewayKeys(apigw, () => parseUsagePlanIds(undefined)) };
    const unconfigured = await admin(['token', 'create', '--client', 'acme'], noPlans);
    expect(unconfigured.code).toBe(EXIT.FAILED);
    expect(unconfigured.err).toContain('USAGE_PLAN_IDS');
    expect(gateway.apiKeys.size).toBe(0);
  });

  it('reads USAGE_PLAN_IDS strictly', () => {
    expect(parseUsagePlanIds(' standard=abc1 , high=def2 ')).toEqual({ standard: 'abc1', high: 'def2' });
    expect(() => parseUsagePlanIds('standard=abc1')).toThrow(/no usage plan id for high/);
    expect(() => parseUsagePlanIds('standard=abc1,gold=x,high=y')).toThrow(/malformed entry "gold=x"/);
    expect(() => parseUsagePlanIds('standard=a b,high=c')).toThrow(/malformed/);
  });

  it('prints the usage on stdout and exits 0 for --help, -h or help, touching nothing', async () => {
    for (const argv of [['--help'], ['-h'], ['help'], ['token', 'create', '--help']]) {
      const result = await admin(argv);
      expect({ argv, code: result.code, err: result.err }).toEqual({ argv, code: EXIT.OK, err: '' });
      expect(result.out.join('\n')).toContain('usage: npm run admin -- <command>');
    }
    expect(storedClients()).toEqual([]);
  });

  it('reports a missing secret as a failure without crashing', async () => {
    const missing: AdminBackends = { ...aws, tokens: () => secretsManagerTokens(secrets, `${SECRET_ARN}-gone`) };
    const result = await admin(['token', 'list'], missing);
    expect(result.code).toBe(EXIT.FAILED);
    expect(result.err).toContain('ResourceNotFoundException');
  });

  it('refuses to overwrite a malformed token secret', async () => {
    fake.secrets.set(SECRET_ARN, '{"clients":[{"clientId":"x","tokenSha256":"nothex"}]}');
    const result = await admin(['token', 'create', '--client', 'acme']);
    expect(result.code).toBe(EXIT.FAILED);
    expect(result.out).toEqual([]);
    expect(fake.secrets.get(SECRET_ARN)).toContain('nothex');
  });
});

describe('provider commands against DynamoDB', () => {
  it('enrolls, shows, updates and disables a provider', async () => {
    const enroll = await admin([
      'provider',
      'enroll',
      '--provider-id',
      'P-1',
      '--client',
      'acme',
      '--npi',
      '1234567893',
      '--org',
      'Clinic',
      '--payer',
      'A',
      '--payer',
      'B',
    ]);
    expect(enroll.code).toBe(EXIT.OK);
    const shown = await admin(['provider', 'show', '--provider-id', 'P-1']);
    expect(JSON.parse(shown.out.join('\n'))).toEqual({
      providerId: 'P-1',
      clientId: 'acme',
      npi: '1234567893',
      organizationName: 'Clinic',
      status: 'active',
      payerIds: ['A', 'B'],
    });

    expect(
      (await admin(['provider', 'enroll', '--provider-id', 'P-1', '--client', 'acme', '--npi', '1234567893', '--first', 'Ada', '--last', 'L'])).err,
    ).toContain('Updated');
    expect((await admin(['provider', 'disable', '--provider-id', 'P-1'])).code).toBe(EXIT.OK);
    expect(JSON.parse((await admin(['provider', 'show', '--provider-id', 'P-1'])).out.join('\n'))).toEqual({
      providerId: 'P-1',
      clientId: 'acme',
      npi: '1234567893',
      firstName: 'Ada',
      lastName: 'L',
      status: 'inactive',
    });
  });

  it('rejects an invalid record with exit 2, naming the flags to fix', async () => {
    const bad = await admin(['provider', 'enroll', '--provider-id', 'P-2', '--client', 'acme', '--npi', '1234567890', '--org', 'Clinic', '--first', 'Ada']);
    expect(bad.code).toBe(EXIT.USAGE);
    expect(bad.err).toContain('--npi: must be a 10-digit NPI with a valid CMS check digit');
    expect(bad.err).toContain('--first: must not be set together with organizationName');
    expect((await admin(['provider', 'show', '--provider-id', 'P-2'])).code).toBe(EXIT.FAILED);
    expect((await admin(['provider', 'enroll', '--provider-id', 'P-2', '--client', 'acme', '--npi', '1234567893'])).err).toContain(
      '--org: either organizationName',
    );
  });

  it("will not hand another client's provider over", async () => {
    await admin(['provider', 'enroll', '--provider-id', 'P-3', '--client', 'acme', '--npi', '1234567893', '--org', 'Clinic']);
    const takeover = await admin(['provider', 'enroll', '--provider-id', 'P-3', '--client', 'rival', '--npi', '1234567893', '--org', 'Clinic']);
    expect(takeover.code).toBe(EXIT.FAILED);
    expect(takeover.err).toContain('enrolled by another client');
    expect(JSON.parse((await admin(['provider', 'show', '--provider-id', 'P-3'])).out.join('\n')).clientId).toBe('acme');
  });

  it('fails (exit 1) on disabling or showing an unknown provider', async () => {
    for (const verb of ['disable', 'show']) {
      const result = await admin(['provider', verb, '--provider-id', 'NOPE']);
      expect(result.code).toBe(EXIT.FAILED);
      expect(result.err).toContain('"NOPE" is not enrolled');
    }
  });
});

describe('local file backends', () => {
  let dir: string;
  let local: AdminBackends;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'admin-'));
    local = { tokens: () => fileTokens(join(dir, '.local', 'tokens.json')), enrollments: () => fileEnrollments(join(dir, '.local', 'enrollments.json')) };
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('writes tokens in the secret format and enrollments the local server can load', async () => {
    const created = await admin(['token', 'create', '--client', 'local', '--plan', 'high'], local);
    const token = created.out[0]!;
    expect(created.err).toContain('RATE_LIMITS');
    const tokensText = await readFile(join(dir, '.local', 'tokens.json'), 'utf8');
    expect(tokensText).not.toContain(token);
    expect(matchToken(token, parseTokenSecret(tokensText))?.clientId).toBe('local');
    // The plan is recorded; no API key exists locally.
    expect(parseTokenSecret(tokensText)).toEqual([{ clientId: 'local', tokenSha256: sha256Hex(token), plan: 'high' }]);

    await admin(['provider', 'enroll', '--provider-id', 'P-L', '--client', 'local', '--npi', '1234567893', '--org', 'Local Clinic'], local);
    await admin(['provider', 'enroll', '--provider-id', 'P-M', '--client', 'local', '--npi', '1987654328', '--first', 'Ada', '--last', 'L'], local);
    await admin(['provider', 'disable', '--provider-id', 'P-M'], local);
    const served = await startLocalEnrollments(join(dir, '.local', 'enrollments.json'));
    try {
      expect(await served.store.get('P-L')).toMatchObject({ organizationName: 'Local Clinic', status: 'active' });
      expect((await served.store.get('P-M'))?.status).toBe('inactive');
    } finally {
      await served.close();
    }
  });
});

describe('cli.ts process', () => {
  const run = (args: string[], env: Record<string, string>) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        join(ROOT, 'node_modules', '.bin', 'tsx'),
        [join(ROOT, 'infra', 'tools', 'admin', 'cli.ts'), ...args],
        { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
    });

  it('selects Secrets Manager from API_TOKENS_SECRET_ARN and exits with the command status', async () => {
    fake.secrets.set(SECRET_ARN, JSON.stringify({ clients: [{ clientId: 'zeta', tokenSha256: sha256Hex('zeta-token-123') }] }));
    const env = {
      API_TOKENS_SECRET_ARN: SECRET_ARN,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: fake.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
    };
    const listed = await run(['token', 'list'], env);
    expect(listed).toMatchObject({ code: 0, stdout: `zeta\t-\t${sha256Hex('zeta-token-123').slice(0, 12)}\n` });
    // API Gateway from the same environment: the usage-plan key lands on the named plan.
    const created = await run(['token', 'create', '--client', 'zeta', '--plan', 'high'], {
      ...env,
      USAGE_PLAN_IDS,
      AWS_ENDPOINT_URL_API_GATEWAY: gateway.endpoint,
    });
    expect(created.code).toBe(0);
    const keyId = parseTokenSecret(fake.secrets.get(SECRET_ARN)!)[0]!.apiKeyId!;
    expect(gateway.planOf(keyId)).toBe(PLAN_IDS.high);
    const bad = await run(['provider', 'enroll', '--provider-id', 'X'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--client is required');
  }, 30000);
});
