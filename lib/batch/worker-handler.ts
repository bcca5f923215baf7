import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { describeException, inRequestScope, log } from '../logging/index.js';
import type { Delay } from './queue.js';
import type { ItemMessage } from './types.js';
import { processItem, type WorkerDeps } from './worker.js';

/**
 * The item queue's consumer (docs/batch.md#engine): Powertools batch over an SQS event, reporting
 * partial batch failures. Records run one after the other, so the event source mapping's
 * MaximumConcurrency is also the most upstream calls at once. A record to retry later has its
 * visibility set to the back-off and is reported failed: SQS hands it back after the delay.
 */

/** Thrown for a record that is going back to the queue on purpose (not an error to log). */
class RetryLater extends Error {
  constructor(readonly seconds: number) {
    super(`retry in ${seconds} s`);
    this.name = 'RetryLater';
  }
}

function readItemMessage(body: string): ItemMessage | undefined {
  try {
    const value = JSON.parse(body) as Partial<ItemMessage>;
    return typeof value.batchId === 'string' && Number.isInteger(value.index) ? { batchId: value.batchId, index: value.index! } : undefined;
  } catch {
    return undefined;
  }
}

export function itemWorkerHandler(deps: WorkerDeps & { delay: Delay }) {
  const processor = new BatchProcessor(EventType.SQS);
  const handleRecord = (record: SQSRecord): Promise<void> =>
    inRequestScope(async () => {
      const message = readItemMessage(record.body);
      // Not a message submit wrote: failing it sends it to the redrive queue after maxReceiveCount.
      if (!message) throw new Error('unreadable item message');
      try {
        const decision = await processItem(deps, message);
        if (decision.kind === 'retry') {
          await deps.delay(record.receiptHandle, decision.seconds);
          throw new RetryLater(decision.seconds);
        }
      } catch (error) {
        if (!(error instanceof RetryLater)) log.error('batch item failed', { batchId: message.batchId, itemIndex: message.index, ...describeException(error) });
        throw error;
      }
    });
  return (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> =>
    processPartialResponse(event, handleRecord, processor, { ...(context ? { context } : {}), processInParallel: false, throwOnFullBatchFailure: false });
}
