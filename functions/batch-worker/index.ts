import { systemClock } from '../../lib/config/index.js';
import { batchWiring, eligibilityCheck, itemWorkerHandler } from '../../lib/batch/index.js';
import { discoveryStoreFromEnv } from '../../lib/discovery/index.js';
import { runtimeFromEnv } from '../../lib/runtime/index.js';

const wiring = batchWiring();

/** The item queue's consumer (docs/batch.md#engine): each item through the real-time eligibility route. */
export const handler = itemWorkerHandler({
  ...wiring,
  check: eligibilityCheck(runtimeFromEnv(), systemClock, discoveryStoreFromEnv()),
  delay: wiring.delayItem,
  clock: systemClock,
});
