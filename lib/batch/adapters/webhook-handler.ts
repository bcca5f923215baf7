import { lookup as dnsLookup } from 'node:dns/promises';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { inRequestScope } from '../../logging/index.js';
import type { Delay } from '../queue.js';
import { sendBatchWebhook, type WebhookDeps } from '../webhook.js';

/**
 * The webhook queue's consumer (docs/batch.md#webhook): one message per finished batch; a failed
 * delivery goes back with the next retry's delay (ChangeMessageVisibility) and is reported failed.
 */

export const systemLookup: WebhookDeps['lookup'] = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

class RetryLater extends Error {}

export function webhookHandler(deps: WebhookDeps & { delay: Delay }) {
  const processor = new BatchProcessor(EventType.SQS);
  const handleRecord = (record: SQSRecord): Promise<void> =>
    inRequestScope(async () => {
      const { batchId } = JSON.parse(record.body) as { batchId?: unknown };
      if (typeof batchId !== 'string') throw new Error('unreadable webhook message');
      const attempt = Number(record.attributes.ApproximateReceiveCount) || 1;
      const decision = await sendBatchWebhook(deps, batchId, attempt);
      if (decision.kind === 'retry') {
        await deps.delay(record.receiptHandle, decision.seconds);
        throw new RetryLater();
      }
    });
  return (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> =>
    processPartialResponse(event, handleRecord, processor, { ...(context ? { context } : {}), throwOnFullBatchFailure: false });
}
