import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { describeException, inRequestScope, log } from '../../logging/index.js';
import type { Delay, ItemQueue } from '../queue.js';
import type { FanOutMessage, ItemMessage } from '../types.js';
import { processItem, type WorkerDeps } from '../worker.js';

/**
 * The item queue's consumer (docs/batch.md#engine): Powertools batch over an SQS event, reporting
 * partial batch failures. A fan-out message (up to 100 items of a just-submitted batch) is sent on as
 * one message per item. Records run one after the other, so the event source mapping's
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

type QueueMessage = ({ kind: 'item' } & ItemMessage) | ({ kind: 'fan-out' } & FanOutMessage);

function readMessage(body: string): QueueMessage | undefined {
  try {
    const value = JSON.parse(body) as Partial<ItemMessage & FanOutMessage>;
    if (typeof value.batchId !== 'string') return undefined;
    if (Number.isInteger(value.index)) return { kind: 'item', batchId: value.batchId, index: value.index! };
    const { clientId, indexes } = value;
    return typeof clientId === 'string' && Array.isArray(indexes) && indexes.every((index) => Number.isInteger(index))
      ? { kind: 'fan-out', batchId: value.batchId, clientId, indexes }
      : undefined;
  } catch {
    return undefined;
  }
}

export function itemWorkerHandler(deps: WorkerDeps & { delay: Delay; items: ItemQueue }) {
  const processor = new BatchProcessor(EventType.SQS);
  const handleRecord = (record: SQSRecord): Promise<void> =>
    inRequestScope(async () => {
      const read = readMessage(record.body);
      // Not a message submit wrote: failing it sends it to the redrive queue after maxReceiveCount.
      if (!read) throw new Error('unreadable item message');
      if (read.kind === 'fan-out') {
        // A repeat of this message sends the items again: a repeated item message makes no second call (the claim).
        await deps.items.sendItems(
          read.clientId,
          read.indexes.map((index) => ({ batchId: read.batchId, index })),
        );
        return;
      }
      const message: ItemMessage = { batchId: read.batchId, index: read.index };
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
