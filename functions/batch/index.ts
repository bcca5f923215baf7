import { webhookSecretsOf } from '../../lib/auth/index.js';
import { readConfig, systemClock } from '../../lib/config/index.js';
import { batchHandler, batchWiring } from '../../lib/batch/index.js';
import { streamingHandler } from '../../lib/http/index.js';

const wiring = batchWiring();

/**
 * POST /api/eligibility/batch/v1, GET …/{batchId}, GET …/{batchId}/items, DELETE …/{batchId} (docs/batch.md),
 * streamed: the results CSV is sent while it is read, page by page; every other answer is one body.
 */
export const handler = streamingHandler(
  batchHandler(
    { ...wiring, webhookSecretsFor: (clientId) => webhookSecretsOf(clientId), clock: systemClock },
    { ...(readConfig().idempotencyTable ? { idempotencyTable: readConfig().idempotencyTable! } : {}) },
  ),
);
