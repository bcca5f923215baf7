import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Clock } from '../../lib/config/clock.js';
import { withDiscoverOnInactive } from '../../lib/discovery/on-inactive.js';
import { discoveryRoute } from '../../lib/discovery/route.js';
import { secondsToUtcMidnight, utcDay } from '../../lib/discovery/service.js';
import { discoveryStoreFromEnv } from '../../lib/discovery/adapters/table-from-env.js';
import { eligibilityRoute } from '../../lib/eligibility/route.js';
import { answerOf } from '../../lib/http/route-outcome.js';
import { runtimeFromEnv } from '../../lib/runtime/index.js';
import { startClearinghouseSandbox, type ClearinghouseSandbox } from '../../infra/dev/sandbox/clearinghouse.js';
import { startLocalEnvironment, type LocalEnvironment } from '../support/local-environment.js';

/**
 * The daily cap on insurance discoveries (docs/finding-coverage.md#the-daily-cap): DISCOVERY_MAX_PER_DAY
 * per client per UTC day, one atomic count in the store (dynalite here), every discovery sent
 * upstream counted (discoverOnInactive's too), 429 DISCOVERY_LIMIT_EXCEEDED with Retry-After = the
 * seconds to the next UTC midnight on the runtime's clock. The routes run against the sandbox
 * clearinghouse over loopback HTTP; the clock is one the test moves.
 */

const KEY = 'cap-test-key';
let sandbox: ClearinghouseSandbox;
let environment: LocalEnvironment;
const savedEnv = { ...process.env };
let nowMs = Date.UTC(2025, 2, 1, 23, 59, 0);
const clock: Clock = { now: () => nowMs };

const NOAH = { patientFirstName: 'Noah', patientLastName: 'Nobody', patientDOB: '10-10-1992', dateOfService: '03-01-2025', providerId: 'PROVIDER-SANDBOX-1' };
const SUSAN = {
  patientFirstName: 'Susan',
  patientLastName: 'Miller',
  patientDOB: '01-20-1969',
  patientMemberId: 'INA400004',
  dateOfCoverage: '03-01-2025',
  payerId: 'SBXPPO',
  providerId: 'PROVIDER-SANDBOX-1',
  discoverOnInactive: true,
};

beforeAll(async () => {
  sandbox = await startClearinghouseSandbox({ apiKey: KEY });
  process.env.STEDI_BASE_URL = sandbox.url;
  process.env.STEDI_API_KEY = KEY;
  environment = await startLocalEnvironment(process.env);
});
afterAll(async () => {
  process.env = { ...savedEnv };
  await environment?.close();
  await sandbox?.close();
});

describe('the UTC day on the clock', () => {
  it('names the day and counts the seconds to its end', () => {
    expect(utcDay(Date.UTC(2025, 2, 1, 23, 59, 0))).toBe('2025-03-01');
    expect(secondsToUtcMidnight(Date.UTC(2025, 2, 1, 23, 59, 0))).toBe(60);
    expect(secondsToUtcMidnight(Date.UTC(2025, 2, 1, 23, 59, 59, 500))).toBe(1);
    expect(secondsToUtcMidnight(Date.UTC(2025, 2, 2, 0, 0, 0))).toBe(86_400);
  });
});

describe('DISCOVERY_MAX_PER_DAY', () => {
  it('refuses the client’s third discovery of the day with 429 and Retry-After to midnight UTC; discoverOnInactive counts; the next day starts over; other clients are not held', async () => {
    const runtime = runtimeFromEnv({ ...process.env, DISCOVERY_MAX_PER_DAY: '2' }, clock);
    const deps = { runtime, store: discoveryStoreFromEnv()! };
    const discover = discoveryRoute(deps);
    const check = withDiscoverOnInactive(deps, eligibilityRoute(runtime));
    const run = (clientId: string, body: typeof NOAH) => discover({ body, clientId, requestId: 'cap' });

    expect(await run('local', NOAH)).toMatchObject({ ok: true, status: 200 });
    // The second discovery of the day is started by an Inactive check.
    const inactive = await check({ body: SUSAN, clientId: 'local', requestId: 'cap' });
    expect(inactive).toMatchObject({ ok: true, body: { coverageStatus: 'Inactive', discovery: { status: 'COMPLETE' } } });
    const calls = sandbox.stats.discoveryCalls;

    const refused = await run('local', NOAH);
    expect(refused).toMatchObject({ ok: false, error: { code: 'DISCOVERY_LIMIT_EXCEEDED', status: 429, retryAfterSeconds: 60 } });
    const { response } = answerOf(refused, 'cap');
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('60');
    expect(JSON.parse(response.body)).toMatchObject({ code: 'DISCOVERY_LIMIT_EXCEEDED', message: expect.stringContaining('DISCOVERY_MAX_PER_DAY') });
    // Past the cap, an Inactive check still answers, with the refusal in its discovery part.
    expect(await check({ body: SUSAN, clientId: 'local', requestId: 'cap' })).toMatchObject({
      ok: true,
      body: { coverageStatus: 'Inactive', discovery: { code: 'DISCOVERY_LIMIT_EXCEEDED' } },
    });
    expect(sandbox.stats.discoveryCalls).toBe(calls);

    // Another client has its own count.
    expect(await run('other', { ...NOAH, providerId: 'PROVIDER-OTHER-CLIENT' })).toMatchObject({ ok: true, status: 200 });

    nowMs += 61_000;
    expect(await run('local', NOAH)).toMatchObject({ ok: true, status: 200 });
  });
});
