import { Duration, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { STATE_INDEX } from '../../../lib/batch/index.js';
import { FUNCTIONS } from '../functions.js';

/**
 * Where batches live (docs/batch.md#engine): the batch table (batches, items and per-client
 * counters; KMS, TTL on `expiresAt`, 7 days after completion) and two queues, each with a redrive
 * queue: one message per item for the worker, one per finished batch for the webhook sender. Every
 * queue is encrypted with the stack's customer-managed key and refuses plain HTTP.
 */

/** A message received this many times goes to the redrive queue: an item retried with back-off for 8 h is received ~36 times. */
export const BATCH_MAX_RECEIVE_COUNT = 50;
export const BATCH_TABLE_KEYS = { partitionKey: 'pk', sortKey: 'sk', ttlAttribute: 'expiresAt' } as const;

export interface BatchStoresProps {
  key: IKey;
}

export class BatchStores {
  readonly table: Table;
  readonly itemQueue: Queue;
  readonly itemDeadLetters: Queue;
  readonly webhookQueue: Queue;
  readonly webhookDeadLetters: Queue;

  constructor(stack: Stack, props: BatchStoresProps) {
    // Items hold eligibility requests and answers (patient data) for 7 days after their batch completes.
    this.table = new Table(stack, 'BatchTable', {
      partitionKey: { name: BATCH_TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: BATCH_TABLE_KEYS.sortKey, type: AttributeType.STRING },
      timeToLiveAttribute: BATCH_TABLE_KEYS.ttlAttribute,
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: 7 },
      encryption: TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: props.key,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Items by state, so `?state=` reads only that state's items (lib/batch/adapters/dynamodb-states.ts).
    this.table.addGlobalSecondaryIndex({
      indexName: STATE_INDEX,
      partitionKey: { name: 'stateKey', type: AttributeType.STRING },
      sortKey: { name: 'index', type: AttributeType.NUMBER },
    });
    const queue = (id: string, options: { visibilitySeconds: number; deadLetters?: Queue }) =>
      new Queue(stack, id, {
        encryption: QueueEncryption.KMS,
        encryptionMasterKey: props.key,
        dataKeyReuse: Duration.minutes(5),
        enforceSSL: true,
        retentionPeriod: Duration.days(options.deadLetters ? 4 : 14),
        visibilityTimeout: Duration.seconds(options.visibilitySeconds),
        ...(options.deadLetters ? { deadLetterQueue: { queue: options.deadLetters, maxReceiveCount: BATCH_MAX_RECEIVE_COUNT } } : {}),
      });
    // AWS's advice for a Lambda event source: visibility at least 6 × the function's timeout.
    const itemVisibility = 6 * FUNCTIONS['batch-worker'].timeoutSeconds;
    const webhookVisibility = 6 * FUNCTIONS['batch-webhook'].timeoutSeconds;
    this.itemDeadLetters = queue('BatchItemDeadLetters', { visibilitySeconds: itemVisibility });
    this.itemQueue = queue('BatchItemQueue', { visibilitySeconds: itemVisibility, deadLetters: this.itemDeadLetters });
    this.webhookDeadLetters = queue('BatchWebhookDeadLetters', { visibilitySeconds: webhookVisibility });
    this.webhookQueue = queue('BatchWebhookQueue', { visibilitySeconds: webhookVisibility, deadLetters: this.webhookDeadLetters });
  }
}
