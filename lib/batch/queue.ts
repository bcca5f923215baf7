import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { ItemMessage } from './types.js';

/**
 * The batch queues (docs/batch.md#engine) over SQS: one message per item, `MessageGroupId` = client
 * id (SQS fair queues: one client's 10,000 items do not starve another's 20), sent ten at a time;
 * a webhook queue; and back-off by changing a message's visibility. Locally the same calls reach an
 * in-process queue speaking the SQS protocol (infra/local/sqs.ts).
 */

export interface ItemQueue {
  sendItems(clientId: string, messages: ItemMessage[]): Promise<void>;
}

export interface WebhookQueue {
  sendWebhook(batchId: string): Promise<void>;
}

/** Sends a received message back for `seconds` (the back-off); the worker then reports it failed. */
export type Delay = (receiptHandle: string, seconds: number) => Promise<void>;

const SEND_CONCURRENCY = 16;

export function sqsItemQueue(client: SQSClient, queueUrl: string): ItemQueue {
  return {
    async sendItems(clientId, messages) {
      const chunks: ItemMessage[][] = [];
      for (let i = 0; i < messages.length; i += 10) chunks.push(messages.slice(i, i + 10));
      let next = 0;
      const lane = async () => {
        while (next < chunks.length) {
          let entries = chunks[next++]!.map((message) => ({ Id: String(message.index), MessageBody: JSON.stringify(message), MessageGroupId: clientId }));
          for (let round = 0; entries.length > 0; round++) {
            if (round > 5) throw new Error('the item queue kept refusing messages');
            if (round > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** round));
            const answer = await client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
            const failed = new Set((answer.Failed ?? []).map((entry) => entry.Id));
            entries = entries.filter((entry) => failed.has(entry.Id));
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(SEND_CONCURRENCY, chunks.length) }, lane));
    },
  };
}

export function sqsWebhookQueue(client: SQSClient, queueUrl: string): WebhookQueue {
  return {
    async sendWebhook(batchId) {
      await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify({ batchId }) }));
    },
  };
}

export function sqsDelay(client: SQSClient, queueUrl: string): Delay {
  return async (receiptHandle, seconds) => {
    await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: Math.round(seconds) }));
  };
}
