import { discoveryHandler } from '../../lib/discovery/http.js';
import { discoveryStoreFromEnv } from '../../lib/discovery/table-from-env.js';
import { runtimeFromEnv } from '../../lib/runtime/index.js';

const runtime = runtimeFromEnv();
const store = discoveryStoreFromEnv();
if (!store) throw new Error('BATCH_TABLE is not set (insurance discoveries are kept in the batch table)');

/** POST /api/insurance-discovery/v1 and GET /api/insurance-discovery/v1/{discoveryId} (docs/finding-coverage.md). */
export const handler = discoveryHandler({ runtime, store }, { idempotencyTable: runtime.config.idempotencyTable });
