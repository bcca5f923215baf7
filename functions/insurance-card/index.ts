import { cardRoute } from '../../lib/card/index.js';
import { apiHandler } from '../../lib/http/index.js';
import { modelFromEnv, runtimeFromEnv } from '../../lib/runtime/index.js';

const runtime = { ...runtimeFromEnv(), model: modelFromEnv() };

/** POST /api/insurance-card/v1 (docs/finding-coverage.md#insurance-card) */
export const handler = apiHandler('insurance-card', 'card', cardRoute(runtime), { idempotencyTable: runtime.config.idempotencyTable });
