/**
 * Sending again what AWS left undone in a batch call (docs/batch.md#engine): the unprocessed items or
 * keys of DynamoDB's BatchWriteItem and BatchGetItem, the failed entries of SQS's SendMessageBatch.
 * Rounds back off on each caller's schedule; the sleep is an argument (the real timer where production
 * wires it), so tests never wait.
 */
import type { Sleep } from '../upstream/index.js';

export interface ResendSchedule {
  /** The wait before round `round` (round 0 is the first send and has none). */
  waitMs(round: number): number;
  /** Resends allowed after the first send; when they run out the call throws `exhausted`. Unbounded when absent. */
  limit?: { resends: number; exhausted: string };
}

/** Sends `first`, then whatever `send` answers was left undone, until nothing is left. */
export async function resendUntilDone<T>(first: T[], send: (pending: T[]) => Promise<T[]>, schedule: ResendSchedule, sleep: Sleep): Promise<void> {
  let pending = first;
  for (let round = 0; pending.length > 0; round++) {
    if (schedule.limit && round > schedule.limit.resends) throw new Error(schedule.limit.exhausted);
    if (round > 0) await sleep(schedule.waitMs(round));
    pending = await send(pending);
  }
}
