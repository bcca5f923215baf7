/**
 * Batch eligibility (docs/batch.md): submit a day's schedule, run each item through the same eligibility
 * route on a queue with a concurrency cap, read results as JSON pages or CSV, and tell the caller by a
 * signed webhook. The stores and the queue are ports; DynamoDB and SQS (or dynalite and the in-process
 * queue) are adapters.
 *
 * @example
 * ```ts
 * import { batchHandler } from '../batch/index.js';
 * export const handler = batchHandler(); // POST/GET/DELETE /api/eligibility/batch/v1…
 * ```
 */

export { STATE_INDEX } from './adapters/dynamodb-rows.js';
export { dynamoBatchStore } from './adapters/dynamodb.js';
export { sqsItemQueue } from './adapters/sqs.js';
export { batchStoreFromEnv } from './adapters/table-from-env.js';
export { batchWiring } from './adapters/wiring.js';
export { CSV_COLUMNS } from './csv-output.js';
export { eligibilityCheck } from './engine.js';
export { batchHandler } from './http.js';
export type { ItemQueue } from './queue.js';
export { batchStatus } from './routes.js';
export type { BatchStore } from './store.js';
export { CLIENT_REF, MAX_NAME } from './submission.js';
export { DEFAULT_BATCH_SETTINGS, ITEM_STATES, type ItemMessage } from './types.js';
export { systemLookup, webhookHandler } from './adapters/webhook-handler.js';
export { itemWorkerHandler } from './adapters/worker-handler.js';
