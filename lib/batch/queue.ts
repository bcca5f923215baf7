import type { FanOutMessage, ItemMessage } from './types.js';

/**
 * What batch code needs from its queues (docs/batch.md#engine): one message per item, a webhook
 * queue, and back-off by sending a received message back for a while. ./adapters/sqs.ts keeps them in
 * SQS (locally the same calls reach an in-process queue speaking the SQS protocol, infra/local/sqs.ts).
 */

export interface ItemQueue {
  /** One message per item, in the client's message group. */
  sendItems(clientId: string, messages: ItemMessage[]): Promise<void>;
  /** Messages that each stand for up to 100 items, for a worker to send on as one message per item. */
  sendFanOuts(clientId: string, messages: FanOutMessage[]): Promise<void>;
}

export interface WebhookQueue {
  /** One message per finished batch, in the client's message group (docs/batch.md#webhook: one client's receiver never delays another's). */
  sendWebhook(batchId: string, clientId: string): Promise<void>;
}

/** Sends a received message back for `seconds` (the back-off); the worker then reports it failed. */
export type Delay = (receiptHandle: string, seconds: number) => Promise<void>;
