import { cardRoute } from '../../lib/card/index.js';
import { apiHandler } from '../../lib/http/index.js';
import { runtimeFromEnv, withModel } from '../../lib/runtime/index.js';

const runtime = withModel(runtimeFromEnv());

/** POST /api/insurance-card/v1 (docs/finding-coverage.md#insurance-card) */
export const handler = apiHandler('insurance-card', 'card', cardRoute(runtime), { idempotencyTable: runtime.config.idempotencyTable });
