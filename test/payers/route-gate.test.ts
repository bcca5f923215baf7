import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { clearinghouseFor } from '../support/clearinghouse.js';
import { systemClock } from '../../lib/config/clock.js';
import { startClearinghouseSandbox } from '../../infra/dev/sandbox/clearinghouse.js';
import { readConfig } from '../../lib/config/index.js';
import { cobRoute } from '../../lib/cob/route.js';
import { eligibilityRoute } from '../../lib/eligibility/route.js';
import type { Enrollment } from '../../lib/enrollment/types.js';
import { fail, serviceError } from '../../lib/errors/index.js';
import { payerDirectory } from '../../lib/payers/directory.js';
import type { Runtime } from '../../lib/runtime/index.js';
import { searchStediPayers } from '../../lib/upstream/stedi-payers.js';
import { SANDBOX_GARCIA } from '../support/events.js';

/**
 * The gate inside the real route functions, against the sandbox clearinghouse: a payer its directory
 * lists as NOT_SUPPORTED never reaches the paid endpoint; an outage lets the check run.
 */

const ENROLLED: Enrollment = { providerId: 'P-1', clientId: 'acme', npi: '1234567893', organizationName: 'Clinic', status: 'active' };
let sandbox: Awaited<ReturnType<typeof startClearinghouseSandbox>>;

beforeAll(async () => {
  sandbox = await startClearinghouseSandbox({ apiKey: 'k' });
});
afterAll(async () => {
  await sandbox?.close();
});

function runtime(payers: Runtime['payers']): Runtime {
  return {
    config: { ...readConfig({}), stediBaseUrl: sandbox.url },
    enrollments: async () => ({ get: async (id: string) => (id === 'P-1' ? ENROLLED : undefined), put: async () => undefined }),
    clearinghouse: clearinghouseFor(sandbox.url, 'k'),
    clock: systemClock,
    payers,
  };
}

const sandboxDirectory = () =>
  payerDirectory({ search: async (search) => (await searchStediPayers({ baseUrl: sandbox.url, apiKey: 'k', timeoutMs: 5_000 }, search)).result });
const garcia = (payerId: string) => ({ body: { ...SANDBOX_GARCIA, providerId: 'P-1', payerId }, clientId: 'acme', requestId: 'r-1' });

describe('PAYER_NOT_SUPPORTED in the routes', () => {
  it('refuses eligibility for a payer listed NOT_SUPPORTED (Delta Dental of South Dakota) with no 270 sent', async () => {
    const before = { x12: sandbox.stats.rawX12Calls, search: sandbox.stats.payerSearchCalls };
    const outcome = await eligibilityRoute(runtime(sandboxDirectory()))(garcia('54097'));
    expect(outcome.ok === false && outcome.error).toMatchObject({ status: 422, code: 'PAYER_NOT_SUPPORTED' });
    expect(sandbox.stats.rawX12Calls).toBe(before.x12);
    expect(sandbox.stats.payerSearchCalls).toBe(before.search + 1);
  });

  it('refuses COB for a payer listed NOT_SUPPORTED for COB (UniCare) with no COB call', async () => {
    const before = sandbox.stats.cobCalls;
    const outcome = await cobRoute(runtime(sandboxDirectory()))(garcia('80314'));
    expect(outcome.ok === false && outcome.error).toMatchObject({ status: 422, code: 'PAYER_NOT_SUPPORTED' });
    expect(sandbox.stats.cobCalls).toBe(before);
  });

  it('lets a supported payer and an unknown payer through to the clearinghouse', async () => {
    const before = sandbox.stats.rawX12Calls;
    const route = eligibilityRoute(runtime(sandboxDirectory()));
    expect((await route(garcia('SBXPPO'))).ok).toBe(true);
    await route(garcia('60054'));
    expect(sandbox.stats.rawX12Calls).toBe(before + 2);
  });

  it('lets the check run when the directory is down', async () => {
    const before = sandbox.stats.rawX12Calls;
    const down = payerDirectory({ search: async () => fail(serviceError('PAYER_UNAVAILABLE')) });
    const outcome = await eligibilityRoute(runtime(down))(garcia('54097'));
    expect(sandbox.stats.rawX12Calls).toBe(before + 1);
    expect(outcome.ok === false && 'code' in outcome.error && outcome.error.code).not.toBe('PAYER_NOT_SUPPORTED');
  });

  it('keeps Medicare COB on its own UNSUPPORTED_PAYER answer', async () => {
    const outcome = await cobRoute(runtime(sandboxDirectory()))(garcia('CMS'));
    expect(outcome.ok === false && 'code' in outcome.error && outcome.error.code).toBe('UNSUPPORTED_PAYER');
  });
});
