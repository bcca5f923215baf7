import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { batchPlaces, environment, type Env } from '../../config/index.js';
import { dynamoBatchStore } from './dynamodb.js';
import type { Delay, ItemQueue, WebhookQueue } from '../queue.js';
import { sqsDelay, sqsItemQueue, sqsWebhookQueue } from './sqs.js';
import { batchSettings } from '../settings.js';
import type { BatchStore } from '../store.js';
import type { BatchSettings } from '../types.js';

/**
 * The batch functions' AWS plumbing from the environment (BATCH_TABLE, BATCH_QUEUE_URL,
 * BATCH_WEBHOOK_QUEUE_URL). The SDK reads region, credentials and AWS_ENDPOINT_URL_DYNAMODB /
 * AWS_ENDPOINT_URL_SQS, which `npm start` points at dynalite and the in-process queue.
 */
export interface BatchWiring {
  store: BatchStore;
  items: ItemQueue;
  webhooks: WebhookQueue;
  /** Back-off on the item queue (ChangeMessageVisibility). */
  delayItem: Delay;
  /** Back-off on the webhook queue. */
  delayWebhook: Delay;
  settings: BatchSettings;
  allowLoopbackHttp: boolean;
}

const required = (value: string | undefined, name: string): string => {
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

export function batchWiring(env: Env = environment()): BatchWiring {
  const places = batchPlaces(env);
  const sqs = new SQSClient({});
  const table = required(places.table, 'BATCH_TABLE');
  const queueUrl = required(places.queueUrl, 'BATCH_QUEUE_URL');
  const webhookQueueUrl = required(places.webhookQueueUrl, 'BATCH_WEBHOOK_QUEUE_URL');
  return {
    store: dynamoBatchStore(DynamoDBDocumentClient.from(new DynamoDBClient({})), table),
    items: sqsItemQueue(sqs, queueUrl),
    webhooks: sqsWebhookQueue(sqs, webhookQueueUrl),
    delayItem: sqsDelay(sqs, queueUrl),
    delayWebhook: sqsDelay(sqs, webhookQueueUrl),
    settings: batchSettings(env),
    allowLoopbackHttp: places.allowLoopbackHttp,
  };
}
