import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startClearinghouseSandbox, type ClearinghouseSandbox } from '../../infra/dev/sandbox/clearinghouse.js';
import { startLocalServer, type LocalServer } from '../../infra/dev/local/server.js';
import { startLocalEnvironment, type LocalEnvironment } from '../support/local-environment.js';
import { responseProblems } from '../support/response-schemas.js';

/**
 * Finding the coverage as `npm start` runs it (docs/finding-coverage.md): the discovery and Medicare
 * functions behind the local gateway, dynalite, and the sandbox clearinghouse over loopback HTTP,
 * whose call counts show what each answer cost upstream.
 */

const KEY = 'discovery-test-key';
let sandbox: ClearinghouseSandbox;
let environment: LocalEnvironment;
let server: LocalServer;
const savedEnv = { ...process.env };

async function call(path: string, init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      authorization: `Bearer ${init.token ?? 'local-dev-token'}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const patient = (firstName: string, lastName: string, dob: string) => ({
  patientFirstName: firstName,
  patientLastName: lastName,
  patientDOB: dob,
  dateOfService: '03-01-2025',
  providerId: 'PROVIDER-SANDBOX-1',
});
const DANA = patient('Dana', 'Quest', '04-12-1980');
const EVAN = patient('Evan', 'Waite', '08-19-1975');
const GRACE = patient('Grace', 'Twofold', '02-02-1988');
const NOAH = patient('Noah', 'Nobody', '10-10-1992');
const calls = () => ({ ...sandbox.stats });

beforeAll(async () => {
  sandbox = await startClearinghouseSandbox({ apiKey: KEY });
  process.env.STEDI_BASE_URL = sandbox.url;
  process.env.STEDI_API_KEY = KEY;
  process.env.API_TOKENS = 'local=local-dev-token,other=other-dev-token';
  environment = await startLocalEnvironment(process.env);
  server = await startLocalServer({ port: 0 });
});
afterAll(async () => {
  process.env = { ...savedEnv };
  await server?.close();
  await environment?.close();
  await sandbox?.close();
});

describe('POST /api/insurance-discovery/v1', () => {
  it('answers 200 COMPLETE with the coverage read from the raw 271 the result carries: one upstream call, no check', async () => {
    const before = calls();
    const { status, body } = await call('/api/insurance-discovery/v1', { body: DANA });
    expect(status).toBe(200);
    expect(responseProblems('discovery', body)).toEqual([]);
    expect(body).toMatchObject({ status: 'COMPLETE' });
    expect(body.discoveryId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.coverages).toHaveLength(1);
    expect(body.coverages[0]).toMatchObject({
      payerId: '60054',
      payerName: 'Aetna',
      memberId: 'AET500001',
      groupNumber: 'GRP-AET-1',
      coverageStatus: 'Active',
    });
    expect(body.coverages[0].eligibility).toMatchObject({
      message: 'Eligibility check successful',
      coverageStatus: 'Active',
      subscriber: { memberId: 'AET500001' },
    });
    expect(calls()).toMatchObject({
      discoveryCalls: before.discoveryCalls + 1,
      rawX12Calls: before.rawX12Calls,
      discoveryResultCalls: before.discoveryResultCalls,
    });
  });

  it('answers 202 PENDING with Location; the poll finds the coverage and runs one check for it; later polls cost nothing', async () => {
    const before = calls();
    const started = await call('/api/insurance-discovery/v1', { body: EVAN });
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ discoveryId: expect.any(String), status: 'PENDING' });
    const location = started.headers.get('location');
    expect(location).toBe(`/api/insurance-discovery/v1/${started.body.discoveryId}`);

    const polled = await call(location!);
    expect(polled.status).toBe(200);
    expect(responseProblems('discovery', polled.body)).toEqual([]);
    expect(polled.body.coverages).toEqual([
      expect.objectContaining({ payerId: '87726', payerName: 'UnitedHealthcare', memberId: 'UHC500002', coverageStatus: 'Active' }),
    ]);
    expect(polled.body.coverages[0].eligibility.subscriber.memberId).toBe('UHC500002');
    expect(calls()).toMatchObject({
      discoveryCalls: before.discoveryCalls + 1,
      discoveryResultCalls: before.discoveryResultCalls + 1,
      rawX12Calls: before.rawX12Calls + 1,
    });

    const again = await call(location!);
    expect(again.body).toEqual(polled.body);
    expect(calls()).toMatchObject({ discoveryResultCalls: before.discoveryResultCalls + 1, rawX12Calls: before.rawX12Calls + 1 });
  });

  it('answers two coverages with one check each, their statuses from each payer’s 271', async () => {
    const before = calls();
    const { status, body } = await call('/api/insurance-discovery/v1', { body: GRACE });
    expect(status).toBe(200);
    expect(body.coverages.map((c: { payerId: string; coverageStatus: string }) => [c.payerId, c.coverageStatus])).toEqual([
      ['62308', 'Active'],
      ['61101', 'Inactive'],
    ]);
    expect(calls().rawX12Calls).toBe(before.rawX12Calls + 2);
  });

  it('answers COMPLETE with no coverages when nothing is found', async () => {
    const { status, body } = await call('/api/insurance-discovery/v1', { body: NOAH });
    expect(status).toBe(200);
    expect(body).toEqual({ discoveryId: expect.any(String), status: 'COMPLETE', coverages: [] });
  });

  it('replays a repeated Idempotency-Key without a second discovery upstream', async () => {
    const headers = { 'idempotency-key': 'discovery-replay-1' };
    const first = await call('/api/insurance-discovery/v1', { body: NOAH, headers });
    const before = calls();
    const replay = await call('/api/insurance-discovery/v1', { body: NOAH, headers });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(calls().discoveryCalls).toBe(before.discoveryCalls);
  });

  it('refuses a provider the client has not enrolled (403), and a bad body (400) before any upstream call', async () => {
    const before = calls();
    const other = await call('/api/insurance-discovery/v1', { body: { ...NOAH, providerId: 'PROVIDER-OTHER-CLIENT' } });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('PROVIDER_NOT_ENROLLED');
    const unknown = await call('/api/insurance-discovery/v1', { body: { ...NOAH, providerId: 'NO-SUCH-PROVIDER' } });
    expect(unknown.body).toEqual({ ...other.body, requestId: unknown.body.requestId });
    const invalid = await call('/api/insurance-discovery/v1', {
      body: { ...NOAH, patientDOB: '02-30-1980', patientAddress: { street: '1 Main', city: 'X', state: 'ZZ', zip: '123' } },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['patientAddress.state', 'patientAddress.zip', 'patientDOB']);
    const long = await call('/api/insurance-discovery/v1', { body: { ...NOAH, patientLastName: 'Featherstonehaugh-Cholmondeley' } });
    expect(long.body.errors).toEqual([{ field: 'patientLastName', message: expect.stringContaining('at most 25 characters') }]);
    expect(calls().discoveryCalls).toBe(before.discoveryCalls);
  });
});

describe('GET /api/insurance-discovery/v1/{discoveryId}', () => {
  it('answers 404 for an unknown id and, exactly alike, for another client’s id', async () => {
    const mine = await call('/api/insurance-discovery/v1', { body: NOAH });
    const unknown = await call('/api/insurance-discovery/v1/00000000-0000-4000-8000-000000000000');
    const others = await call(`/api/insurance-discovery/v1/${mine.body.discoveryId}`, { token: 'other-dev-token' });
    expect(unknown.status).toBe(404);
    expect(others.status).toBe(404);
    expect(others.body).toEqual({ ...unknown.body, requestId: others.body.requestId });
    expect((await call(`/api/insurance-discovery/v1/${mine.body.discoveryId}`)).status).toBe(200);
  });

  it('answers 404 for an id that is not one of ours in shape (a 3,000-character id included), never a 500', async () => {
    for (const id of ['x'.repeat(3000), 'not-a-uuid', '%00']) {
      const { status, body } = await call(`/api/insurance-discovery/v1/${id}`);
      expect([id.slice(0, 10), status, body.code]).toEqual([id.slice(0, 10), 404, 'NOT_FOUND']);
    }
  });
});

describe('discoverOnInactive on POST /api/eligibility/v1', () => {
  const check = (firstName: string, lastName: string, dob: string, memberId: string) => ({
    patientFirstName: firstName,
    patientLastName: lastName,
    patientDOB: dob,
    patientMemberId: memberId,
    dateOfCoverage: '03-01-2025',
    payerId: 'SBXPPO',
    providerId: 'PROVIDER-SANDBOX-1',
  });

  it('adds the discovery to an Inactive answer; its id polls; without the flag no discovery starts', async () => {
    const susan = check('Susan', 'Miller', '01-20-1969', 'INA400004');
    const before = calls();
    const plain = await call('/api/eligibility/v1', { body: susan });
    expect(plain.body.coverageStatus).toBe('Inactive');
    expect(plain.body.discovery).toBeUndefined();
    expect(calls().discoveryCalls).toBe(before.discoveryCalls);

    const { status, body } = await call('/api/eligibility/v1', { body: { ...susan, discoverOnInactive: true } });
    expect(status).toBe(200);
    expect(responseProblems('realEligibility', body)).toEqual([]);
    expect(body.discovery).toEqual({ discoveryId: expect.any(String), status: 'COMPLETE', coverages: [] });
    expect(calls().discoveryCalls).toBe(before.discoveryCalls + 1);
    expect((await call(`/api/insurance-discovery/v1/${body.discovery.discoveryId}`)).body).toEqual(body.discovery);
  });

  it.each([
    ['72', check('Kevin', 'Wright', '07-07-1990', 'ERR720072')],
    ['75', check('Nina', 'Lopez', '12-01-1995', 'ERR750075')],
  ])('adds the discovery to the 422 of a rejection with AAA %s', async (code, body) => {
    const rejected = await call('/api/eligibility/v1', { body: { ...body, discoverOnInactive: true } });
    expect(rejected.status).toBe(422);
    expect(responseProblems('error', rejected.body)).toEqual([]);
    expect(rejected.body).toMatchObject({ code: 'PAYER_REJECTED', rejections: [expect.objectContaining({ code })] });
    expect(rejected.body.discovery).toEqual({ discoveryId: expect.any(String), status: 'COMPLETE', coverages: [] });
  });

  it('leaves an Active answer alone', async () => {
    const before = calls();
    const active = await call('/api/eligibility/v1', { body: { ...check('Maria', 'Garcia', '04-12-1985', 'PPO100001'), discoverOnInactive: true } });
    expect(active.body.coverageStatus).toBe('Active');
    expect(active.body.discovery).toBeUndefined();
    expect(calls().discoveryCalls).toBe(before.discoveryCalls);
  });
});

describe('POST /api/medicare/mbi/v1', () => {
  const lookup = (extra: Record<string, string>) => ({ dateOfCoverage: '03-01-2025', providerId: 'PROVIDER-SANDBOX-1', ...extra });

  it('finds the Medicare number by SSN and answers the Original Medicare eligibility read from the 271', async () => {
    const { status, body } = await call('/api/medicare/mbi/v1', {
      body: lookup({ patientFirstName: 'Walter', patientLastName: 'Medi', patientDOB: '05-05-1950', patientSSN: '123-45-6789' }),
    });
    expect(status).toBe(200);
    expect(responseProblems('mbi', body)).toEqual([]);
    expect(body.mbi).toBe('1EG4TE5MK74');
    expect(body.eligibility).toMatchObject({ coverageStatus: 'Active', subscriber: { memberId: '1EG4TE5MK74' } });
  });

  it('finds it without an SSN by the state the patient lives in', async () => {
    const { status, body } = await call('/api/medicare/mbi/v1', {
      body: lookup({ patientFirstName: 'Ruth', patientLastName: 'Medi', patientDOB: '07-04-1948', patientState: 'OH' }),
    });
    expect(status).toBe(200);
    expect(body.mbi).toBe('2FH5UF6NL85');
  });

  it('answers the payer’s 422 PAYER_REJECTED with its AAA when Medicare finds no one', async () => {
    const { status, body } = await call('/api/medicare/mbi/v1', {
      body: lookup({ patientFirstName: 'Ruth', patientLastName: 'Medi', patientDOB: '07-04-1948', patientState: 'TX' }),
    });
    expect(status).toBe(422);
    expect(body).toMatchObject({ code: 'PAYER_REJECTED', rejections: [expect.objectContaining({ code: '75' })] });
  });

  it('refuses a lookup with neither SSN nor state (400 naming both) and an unenrolled provider (403), before any upstream call', async () => {
    const before = calls();
    const neither = await call('/api/medicare/mbi/v1', { body: lookup({ patientFirstName: 'Ruth', patientLastName: 'Medi', patientDOB: '07-04-1948' }) });
    expect(neither.status).toBe(400);
    expect(neither.body.code).toBe('INVALID_REQUEST');
    expect(neither.body.errors).toEqual([{ field: 'patientSSN', message: expect.stringContaining('patientSSN or patientState is required') }]);
    const other = await call('/api/medicare/mbi/v1', {
      body: {
        ...lookup({ patientFirstName: 'Ruth', patientLastName: 'Medi', patientDOB: '07-04-1948', patientState: 'OH' }),
        providerId: 'PROVIDER-OTHER-CLIENT',
      },
    });
    expect(other.status).toBe(403);
    expect(calls().rawX12Calls).toBe(before.rawX12Calls);
  });
});
