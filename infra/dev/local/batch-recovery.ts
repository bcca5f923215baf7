import type { BatchStore, ItemMessage, ItemQueue } from '../../../lib/batch/index.js';

/**
 * A restart of the local server over data kept on disk (LOCAL_DATA_DIR, docs/batch.md#local): in AWS
 * the item queue outlives a worker that dies, but the in-process queue dies with the server, so on
 * start every item of an unfinished batch that is still PENDING or IN_PROGRESS is sent again, as SQS
 * would still hold its message. The worker's own rules do the rest: a pending item is claimed as
 * usual, an item a dead worker held is taken over once its lease runs out with the same attempt (the
 * same upstream Idempotency-Key), a finished one makes no call. Answers how many were sent.
 */
const PAGE = 500;

export async function requeueUnfinished(store: BatchStore, queue: ItemQueue): Promise<number> {
  let sent = 0;
  for (const batch of await store.openBatches()) {
    let afterIndex: number | undefined;
    do {
      const page = await store.listItems(batch.batchId, { limit: PAGE, ...(afterIndex === undefined ? {} : { afterIndex }) });
      const messages: ItemMessage[] = page.items
        .filter((item) => item.state === 'PENDING' || item.state === 'IN_PROGRESS')
        .map((item) => ({ batchId: batch.batchId, index: item.index }));
      if (messages.length > 0) await queue.sendItems(batch.clientId, messages);
      sent += messages.length;
      afterIndex = page.lastIndex;
    } while (afterIndex !== undefined);
  }
  return sent;
}
