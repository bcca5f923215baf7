import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { timerSleep, type Sleep } from '../../upstream/index.js';
import type { Delay, ItemQueue, WebhookQueue } from '../queue.js';
import { resendUntilDone, type ResendSchedule } from '../resend.js';
import type { FanOutMessage, ItemMessage } from '../types.js';

/**
 * The batch queues (../queue.ts) over SQS: one message per item, `MessageGroupId` = client id (SQS
 * fair queues: one client's 10,000 items do not starve another's 20), sent ten at a time; a webhook
 * queue; and back-off by changing a message's visibility.
 */

const SEND_CONCURRENCY = 16;

/** Entries SendMessageBatch refused are sent again, 100 ms doubling, at most five times; then the send fails. */
const REFUSED_RESEND: ResendSchedule = { waitMs: (round) => 50 * 2 ** round, limit: { resends: 5, exhausted: 'the item queue kept refusing messages' } };

/** `sleep` is the wait between resends of refused entries (tests pass a fake). */
export function sqsItemQueue(client: SQSClient, queueUrl: string, sleep: Sleep = timerSleep): ItemQueue {
  /** Sends the entries ten at a time (SendMessageBatch's most), SEND_CONCURRENCY calls at once. */
  async function sendAll(clientId: string, bodies: { id: string; body: string }[]): Promise<void> {
    const chunks: { id: string; body: string }[][] = [];
    for (let i = 0; i < bodies.length; i += 10) chunks.push(bodies.slice(i, i + 10));
    let next = 0;
    const lane = async () => {
      while (next < chunks.length) {
        const entries = chunks[next++]!.map(({ id, body }) => ({ Id: id, MessageBody: body, MessageGroupId: clientId }));
        await resendUntilDone(
          entries,
          async (pending) => {
            const answer = await client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: pending }));
            const failed = new Set((answer.Failed ?? []).map((entry) => entry.Id));
            return pending.filter((entry) => failed.has(entry.Id));
          },
          REFUSED_RESEND,
          sleep,
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(SEND_CONCURRENCY, chunks.length) }, lane));
  }
  return {
    sendItems: (clientId, messages: ItemMessage[]) =>
      sendAll(
        clientId,
        messages.map((message) => ({ id: String(message.index), body: JSON.stringify(message) })),
      ),
    sendFanOuts: (clientId, messages: FanOutMessage[]) =>
      sendAll(
        clientId,
        messages.map((message) => ({ id: `f${message.indexes[0] ?? 0}`, body: JSON.stringify(message) })),
      ),
  };
}

export function sqsWebhookQueue(client: SQSClient, queueUrl: string): WebhookQueue {
  return {
    async sendWebhook(batchId, clientId) {
      await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify({ batchId }), MessageGroupId: clientId }));
    },
  };
}

export function sqsDelay(client: SQSClient, queueUrl: string): Delay {
  return async (receiptHandle, seconds) => {
    await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: Math.round(seconds) }));
  };
}
