import { systemClock } from '../../lib/config/clock.js';
import { eligibilityCheck } from '../../lib/batch/engine.js';
import { itemWorkerHandler } from '../../lib/batch/worker-handler.js';
import { batchWiring } from '../../lib/batch/adapters/wiring.js';
import { discoveryStoreFromEnv } from '../../lib/discovery/table-from-env.js';
import { runtimeFromEnv } from '../../lib/runtime/index.js';

const wiring = batchWiring();

/** The item queue's consumer (docs/batch.md#engine): each item through the real-time eligibility route. */
export const handler = itemWorkerHandler({
  ...wiring,
  check: eligibilityCheck(runtimeFromEnv(), systemClock, discoveryStoreFromEnv()),
  delay: wiring.delayItem,
  clock: systemClock,
});
