import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { EventSourceMapping } from 'aws-cdk-lib/aws-lambda';
import type { BatchStores } from './batch-stores.js';

/**
 * The queues' consumers (docs/batch.md#engine): event source mappings with partial batch failures
 * (ReportBatchItemFailures) and a MaximumConcurrency cap. The worker's cap (BATCH_MAX_CONCURRENCY,
 * default 10) is also the most clearinghouse calls batches make at once, since each invocation runs
 * its records one after the other: the rest of the clearinghouse's budget stays with the front desk.
 * The webhook sender takes one record per invocation (docs/batch.md#webhook), so a receiver that hangs
 * until the 10 s deadline fails its own delivery only, and runs up to WEBHOOK_MAX_CONCURRENCY at once:
 * with the messages grouped by client (SQS fair queues), one client's hanging receivers leave the
 * other slots to other clients.
 * The queue permissions are in each function's own policy (api-functions.ts), so no inline policy.
 */

/** Webhook deliveries at once; each holds its slot for at most the 10 s deadline. */
export const WEBHOOK_MAX_CONCURRENCY = 10;

export interface BatchConsumersProps {
  stores: BatchStores;
  worker: NodejsFunction;
  webhook: NodejsFunction;
  maxConcurrency: number;
}

export class BatchConsumers {
  readonly itemMapping: EventSourceMapping;
  readonly webhookMapping: EventSourceMapping;

  constructor(props: BatchConsumersProps) {
    this.itemMapping = props.worker.addEventSourceMapping('BatchItemSource', {
      eventSourceArn: props.stores.itemQueue.queueArn,
      batchSize: 10,
      maxConcurrency: props.maxConcurrency,
      reportBatchItemFailures: true,
    });
    this.webhookMapping = props.webhook.addEventSourceMapping('BatchWebhookSource', {
      eventSourceArn: props.stores.webhookQueue.queueArn,
      batchSize: 1,
      maxConcurrency: WEBHOOK_MAX_CONCURRENCY,
      reportBatchItemFailures: true,
    });
  }
}
