import { ok } from '../../lib/errors/index.js';
import type { Clearinghouse } from '../../lib/runtime/clearinghouse.js';
import { stediClearinghouse, type StediSettings } from '../../lib/upstream/clearinghouse.js';

/**
 * The clearinghouse port as production wires it (the Stedi adapter) at a loopback URL: the sandbox or a
 * test's own server. The retry wait is shortened to 20 ms; `overrides` set the key, budget or clock.
 */
export function clearinghouseFor(baseUrl: string, apiKey: string | undefined, overrides: Partial<StediSettings> = {}): Clearinghouse {
  return stediClearinghouse({
    baseUrl,
    apiKey: async () => ok(apiKey ?? ''),
    budgetMs: 5_000,
    payerSearchBudgetMs: 3_000,
    sandbox: true,
    ...overrides,
    retry: { delayMs: () => 20, ...overrides.retry },
  });
}
