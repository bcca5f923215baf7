import { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { dynamoBatchStore, sqsItemQueue, STATE_INDEX } from '../../../lib/batch/index.js';
import { requeueUnfinished } from './batch-recovery.js';
import { ensureTable, localDynamoClient } from './enrollments.js';
import { loadHandler } from './routes.js';
import { type LocalQueue, startLocalSqs } from './sqs.js';

/**
 * Batch eligibility locally (docs/batch.md#local): the batch table in the in-process dynalite, the
 * item and webhook queues in the in-process SQS (./sqs.ts), and their consumers running the very
 * worker and webhook functions Lambda runs, the item consumer capped at BATCH_MAX_CONCURRENCY.
 * Everything is announced through the same environment variables the functions read in AWS.
 */

export const LOCAL_BATCH_TABLE = 'batches';
/** As the stack's queues: a message received this often goes to the redrive queue. */
export const MAX_RECEIVE_COUNT = 50;
const ITEM_VISIBILITY_SECONDS = 120;
const WEBHOOK_VISIBILITY_SECONDS = 60;
/**
 * The webhook consumer's slots per client (docs/batch.md#local): a client whose receiver hangs holds at
 * most its own two deliveries (each cut at the 10 s deadline); other clients' webhooks go out meanwhile.
 */
export const WEBHOOK_SLOTS_PER_CLIENT = 2;

type Env = Record<string, string | undefined>;
type QueueConsumer = (event: SQSEvent) => Promise<SQSBatchResponse>;

export interface LocalBatch {
  items: LocalQueue;
  webhooks: LocalQueue;
  /** Items of unfinished batches found in the table at start and queued again (data kept on disk). */
  requeued: number;
  close(): Promise<void>;
}

export async function createBatchTable(endpoint: string, tableName: string = LOCAL_BATCH_TABLE): Promise<string> {
  const client = localDynamoClient(endpoint);
  try {
    await ensureTable(client, {
      TableName: tableName,
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
        { AttributeName: 'stateKey', AttributeType: 'S' },
        { AttributeName: 'index', AttributeType: 'N' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      // Items by state (lib/batch/adapters/dynamodb-states.ts), as the stack's table has it.
      GlobalSecondaryIndexes: [
        {
          IndexName: STATE_INDEX,
          KeySchema: [
            { AttributeName: 'stateKey', KeyType: 'HASH' },
            { AttributeName: 'index', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
      BillingMode: 'PAY_PER_REQUEST',
    });
  } finally {
    client.destroy();
  }
  return tableName;
}

/**
 * Starts the queues and consumers; the caller has set AWS_ENDPOINT_URL_DYNAMODB and BATCH_TABLE.
 * Unfinished items already in the table (a restart over LOCAL_DATA_DIR) are queued again first.
 */
export async function startLocalBatch(env: Env, options: { msPerSecond?: number } = {}): Promise<LocalBatch> {
  const sqs = await startLocalSqs(options);
  const items = sqs.queue('batch-items', { visibilityTimeoutSeconds: ITEM_VISIBILITY_SECONDS, maxReceiveCount: MAX_RECEIVE_COUNT });
  const webhooks = sqs.queue('batch-webhooks', { visibilityTimeoutSeconds: WEBHOOK_VISIBILITY_SECONDS, maxReceiveCount: MAX_RECEIVE_COUNT });
  env.AWS_ENDPOINT_URL_SQS = sqs.endpoint;
  env.BATCH_QUEUE_URL = items.url;
  env.BATCH_WEBHOOK_QUEUE_URL = webhooks.url;
  env.BATCH_ALLOW_LOOPBACK_HTTP = 'true';
  const concurrency = Number(env.BATCH_MAX_CONCURRENCY) > 0 ? Math.floor(Number(env.BATCH_MAX_CONCURRENCY)) : 10;
  // The functions read the environment when first imported: only now, with everything set.
  // Loaded once per consumer: a dynamic import per message goes through the module loader's hooks every time.
  const consumer = (name: 'batch-worker' | 'batch-webhook') => {
    let loaded: Promise<QueueConsumer> | undefined;
    return async (event: SQSEvent) => {
      // A failed import is forgotten, so the next message tries again instead of failing the same way.
      loaded ??= (loadHandler(name) as unknown as Promise<QueueConsumer>).catch((error: unknown) => {
        loaded = undefined;
        throw error;
      });
      return (await loaded)(event);
    };
  };
  const requeued = await requeue(env, sqs.endpoint, items.url);
  items.consume(consumer('batch-worker'), { maxConcurrency: concurrency });
  webhooks.consume(consumer('batch-webhook'), { maxConcurrency: Number.POSITIVE_INFINITY, maxConcurrencyPerGroup: WEBHOOK_SLOTS_PER_CLIENT });
  return { items, webhooks, requeued, close: () => sqs.close() };
}

async function requeue(env: Env, sqsEndpoint: string, queueUrl: string): Promise<number> {
  const dynamo = localDynamoClient(String(env.AWS_ENDPOINT_URL_DYNAMODB));
  const sqs = new SQSClient({ endpoint: sqsEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    return await requeueUnfinished(dynamoBatchStore(dynamo, String(env.BATCH_TABLE)), sqsItemQueue(sqs, queueUrl));
  } finally {
    dynamo.destroy();
    sqs.destroy();
  }
}
