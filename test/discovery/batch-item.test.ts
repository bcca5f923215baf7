import { systemClock } from '../../lib/config/clock.js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eligibilityCheck } from '../../lib/batch/engine.js';
import { discoveryStoreFromEnv } from '../../lib/discovery/adapters/table-from-env.js';
import { runtimeFromEnv } from '../../lib/runtime/index.js';
import { startClearinghouseSandbox, type ClearinghouseSandbox } from '../../infra/dev/sandbox/clearinghouse.js';
import { startLocalEnvironment, type LocalEnvironment } from '../support/local-environment.js';

/**
 * A batch item sent with discoverOnInactive (docs/finding-coverage.md#discovery-when-the-check-finds-nothing):
 * the batch engine's step over the eligibility route starts the discovery too, under the item
 * attempt's upstream key with `-discovery` (one key per kind of request), against dynalite and the
 * sandbox clearinghouse over loopback HTTP.
 */

const KEY = 'batch-item-key';
let sandbox: ClearinghouseSandbox;
let environment: LocalEnvironment;
const savedEnv = { ...process.env };

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

describe('discoverOnInactive on a batch item', () => {
  it('adds the discovery to the item’s answer, sent under the attempt’s key with -discovery', async () => {
    const check = eligibilityCheck(runtimeFromEnv(process.env), systemClock, discoveryStoreFromEnv());
    const item = {
      patientFirstName: 'Susan',
      patientLastName: 'Miller',
      patientDOB: '01-20-1969',
      patientMemberId: 'INA400004',
      dateOfCoverage: '03-01-2025',
      payerId: 'SBXPPO',
      providerId: 'PROVIDER-SANDBOX-1',
      discoverOnInactive: true,
    };
    const answer = await check({ body: item, clientId: 'local', requestId: 'r', idempotencyKey: 'b-1-0-1', attemptAt: Date.parse('2025-03-01T12:00:00Z') });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ coverageStatus: 'Inactive', discovery: { status: 'COMPLETE', coverages: [] } });
    expect(sandbox.discoveryKeys).toEqual(['b-1-0-1-discovery']);
  });
});
