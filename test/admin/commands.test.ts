import { describe, it, expect, beforeAll, afterAll, beforeEach } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { findClient, parseTokenSecret, sha256Hex } from '../../lib/auth/tokens.js';
import { dynamoEnrollments, fileEnrollments, fileTokens, secretsManagerTokens } from '../../infra/admin/backends.js';
import { EXIT, runAdmin, type AdminBackends } from '../../infra/admin/commands.js';
import { createEnrollmentTable, localDynamoClient, startDynalite, startLocalEnrollments, type LocalDynamo } from '../../infra/local/enrollments.js';
import { startSecretsManagerFake, type SecretsManagerFake } from './secrets-manager-fake.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:api-tokens-AbCdEf';
const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };

let fake: SecretsManagerFake;
let dynamo: LocalDynamo;
let doc: DynamoDBDocumentClient;
let secrets: SecretsManagerClient;
let aws: AdminBackends;
let tableCount = 0;

beforeAll(async () => {
  fake = await startSecretsManagerFake();
  dynamo = await startDynalite();
  doc = localDynamoClient(dynamo.endpoint);
  secrets = new SecretsManagerClient({ endpoint: fake.endpoint, region: 'us-east-1', credentials });
});

afterAll(async () => {
  secrets.destroy();
  doc.destroy();
  await Promise.all([fake.close(), dynamo.close()]);
});

beforeEach(async () => {
  fake.secrets.set(SECRET_ARN, '{"clients":[]}');
  const table = `enrollments-${++tableCount}`;
  await createEnrollmentTable(doc, table);
  aws = { tokens: () => secretsManagerTokens(secrets, SECRET_ARN), enrollments: () => dynamoEnrollments(doc, table) };
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
    expect(storedClients()).toEqual([{ clientId: 'acme', tokenSha256: sha256Hex(token) }]);
    // The authorizer's own lookup accepts it.
    expect(findClient(token, storedClients())).toBe('acme');
    expect(fake.calls.every((c) => c.signed)).toBe(true);
    expect(fake.calls.map((c) => c.target)).toEqual(expect.arrayContaining(['secretsmanager.GetSecretValue', 'secretsmanager.PutSecretValue']));
  });

  it('issues distinct tokens, lists client ids only, and revokes one by digest prefix or all', async () => {
    const first = (await admin(['token', 'create', '--client', 'acme'])).out[0]!;
    const second = await admin(['token', 'create', '--client', 'acme']);
    expect(second.err).toContain('now holds 2 tokens');
    await admin(['token', 'create', '--client', 'beta']);
    expect(second.out[0]).not.toBe(first);

    const list = await admin(['token', 'list']);
    expect(list.out).toEqual(['acme', 'beta']);
    expect(list.out.join('\n')).not.toMatch(/[0-9a-f]{64}/);

    expect((await admin(['token', 'revoke', '--client', 'acme', '--digest', sha256Hex(first).slice(0, 10)])).code).toBe(EXIT.OK);
    expect(findClient(first, storedClients())).toBeUndefined();
    expect(findClient(second.out[0]!, storedClients())).toBe('acme');

    expect((await admin(['token', 'revoke', '--client', 'acme'])).code).toBe(EXIT.OK);
    expect(storedClients().map((c) => c.clientId)).toEqual(['beta']);
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
    const enroll = await admin(['provider', 'enroll', '--provider-id', 'P-1', '--client', 'acme', '--npi', '1234567893', '--org', 'Clinic', '--payer', 'A', '--payer', 'B']);
    expect(enroll.code).toBe(EXIT.OK);
    const shown = await admin(['provider', 'show', '--provider-id', 'P-1']);
    expect(JSON.parse(shown.out.join('\n'))).toEqual({ providerId: 'P-1', clientId: 'acme', npi: '1234567893', organizationName: 'Clinic', status: 'active', payerIds: ['A', 'B'] });

    expect((await admin(['provider', 'enroll', '--provider-id', 'P-1', '--client', 'acme', '--npi', '1234567893', '--first', 'Ada', '--last', 'L'])).err).toContain('Updated');
    expect((await admin(['provider', 'disable', '--provider-id', 'P-1'])).code).toBe(EXIT.OK);
    expect(JSON.parse((await admin(['provider', 'show', '--provider-id', 'P-1'])).out.join('\n'))).toEqual({
      providerId: 'P-1', clientId: 'acme', npi: '1234567893', firstName: 'Ada', lastName: 'L', status: 'inactive',
    });
  });

  it('rejects an invalid record with exit 2, naming the flags to fix', async () => {
    const bad = await admin(['provider', 'enroll', '--provider-id', 'P-2', '--client', 'acme', '--npi', '1234567890', '--org', 'Clinic', '--first', 'Ada']);
    expect(bad.code).toBe(EXIT.USAGE);
    expect(bad.err).toContain('--npi: must be a 10-digit NPI with a valid CMS check digit');
    expect(bad.err).toContain('--first: must not be set together with organizationName');
    expect((await admin(['provider', 'show', '--provider-id', 'P-2'])).code).toBe(EXIT.FAILED);
    expect((await admin(['provider', 'enroll', '--provider-id', 'P-2', '--client', 'acme', '--npi', '1234567893'])).err).toContain('--org: either organizationName');
  });

  it('will not hand another client\'s provider over', async () => {
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
    const token = (await admin(['token', 'create', '--client', 'local'], local)).out[0]!;
    const tokensText = await readFile(join(dir, '.local', 'tokens.json'), 'utf8');
    expect(tokensText).not.toContain(token);
    expect(findClient(token, parseTokenSecret(tokensText))).toBe('local');

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
      execFile(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'infra', 'admin', 'cli.ts'), ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
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
    expect(listed).toMatchObject({ code: 0, stdout: 'zeta\n' });
    const bad = await run(['provider', 'enroll', '--provider-id', 'X'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--client is required');
  }, 30000);
});
