import { mbiRoute } from '../../lib/discovery/mbi.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import { runtimeFromEnv } from '../../lib/runtime/index.js';

const runtime = runtimeFromEnv();

/** POST /api/medicare/mbi/v1 (docs/finding-coverage.md#medicare-number) */
export const handler = apiHandler('medicare', 'mbi', mbiRoute(runtime), { idempotencyTable: runtime.config.idempotencyTable });
