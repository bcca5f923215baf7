import { payersHandler } from '../../lib/payers/index.js';
import { runtimeFromEnv } from '../../lib/runtime/index.js';

/** GET /api/payers and GET /api/payers/{payerId} (docs/api.md#payer-directory); the directory is cached per container. */
export const handler = payersHandler(runtimeFromEnv().payers);
