import { batchHandler } from '../../lib/batch/http.js';
import { batchWiring } from '../../lib/batch/wiring.js';
import { readConfig } from '../../lib/config/index.js';

const wiring = batchWiring();

/** POST /api/eligibility/batch/v1, GET …/{batchId}, GET …/{batchId}/items, DELETE …/{batchId} (docs/batch.md). */
export const handler = batchHandler(
  { ...wiring, now: Date.now },
  { ...(readConfig().idempotencyTable ? { idempotencyTable: readConfig().idempotencyTable! } : {}) },
);
