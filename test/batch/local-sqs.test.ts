import { afterEach, describe, expect, it } from '@jest/globals';
import { ChangeMessageVisibilityCommand, SQSClient, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { startLocalSqs, type LocalSqs } from '../../infra/dev/local/sqs.js';

/**
 * The in-process SQS stand-in keeps what a user can observe of SQS: fairness across message
 * groups, the consumer cap, visibility back-off, redelivery of failed messages and redrive.
 * Reached through the real SQS SDK (its JSON protocol and MD5 checks). SQS seconds are scaled.
 */

let sqs: LocalSqs | undefined;
afterEach(async () => {
  await sqs?.close();
  sqs = undefined;
});

const client = (endpoint: string) => new SQSClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
};
const send = async (sdk: SQSClient, url: string, group: string, bodies: string[]) => {
  for (let i = 0; i < bodies.length; i += 10) {
    await sdk.send(
      new SendMessageBatchCommand({
        QueueUrl: url,
        Entries: bodies.slice(i, i + 10).map((body, j) => ({ Id: String(i + j), MessageBody: body, MessageGroupId: group })),
      }),
    );
  }
};

describe('the local queue', () => {
  it('takes groups in turn: 2 messages of one client are not stuck behind 100 of another', async () => {
    sqs = await startLocalSqs({ msPerSecond: 1 });
    const queue = sqs.queue('fair', { visibilityTimeoutSeconds: 30, maxReceiveCount: 5 });
    const sdk = client(sqs.endpoint);
    await send(
      sdk,
      queue.url,
      'big',
      Array.from({ length: 100 }, (_, i) => `big-${i}`),
    );
    await send(sdk, queue.url, 'small', ['small-0', 'small-1']);
    const order: string[] = [];
    queue.consume(async (event) => void order.push(...event.Records.map((r) => r.body)), { maxConcurrency: 1 });
    await until(() => order.length === 102);
    expect(order.indexOf('small-1')).toBeLessThan(6);
    expect(order.filter((b) => b.startsWith('big')).length).toBe(100);
  });

  it('never runs more consumers at once than the cap', async () => {
    sqs = await startLocalSqs({ msPerSecond: 1 });
    // Visibility far past any consumer's run (no redelivery however loaded the machine is).
    const queue = sqs.queue('capped', { visibilityTimeoutSeconds: 60_000, maxReceiveCount: 5 });
    await send(
      client(sqs.endpoint),
      queue.url,
      'a',
      Array.from({ length: 40 }, (_, i) => String(i)),
    );
    let active = 0;
    let most = 0;
    let done = 0;
    queue.consume(
      async () => {
        active++;
        most = Math.max(most, active);
        // Each consumer holds its slot until the cap is full (or too few messages are left to fill it),
        // so the cap is reached on an idle machine and a loaded one alike; a fourth would be counted.
        await until(() => active >= 3 || 40 - done <= active);
        await new Promise((resolve) => setTimeout(resolve, 2));
        active--;
        done++;
      },
      { maxConcurrency: 3 },
    );
    await until(() => done === 40);
    expect(most).toBe(3);
  });

  it('redelivers a failed message once its visibility runs out, hides one for the back-off it was given, and redrives poison', async () => {
    sqs = await startLocalSqs({ msPerSecond: 1 });
    const queue = sqs.queue('retries', { visibilityTimeoutSeconds: 50, maxReceiveCount: 3 });
    const sdk = client(sqs.endpoint);
    await send(sdk, queue.url, 'a', ['flaky', 'backoff', 'poison']);
    const seen: Record<string, number[]> = { flaky: [], backoff: [], poison: [] };
    const sequence: string[] = [];
    queue.consume(
      async (event: SQSEvent) => {
        const failures: { itemIdentifier: string }[] = [];
        for (const record of event.Records) {
          seen[record.body]!.push(Number(record.attributes.ApproximateReceiveCount));
          sequence.push(`${record.body}#${record.attributes.ApproximateReceiveCount}`);
          if (record.body === 'flaky' && seen.flaky!.length === 1) failures.push({ itemIdentifier: record.messageId });
          if (record.body === 'backoff' && seen.backoff!.length === 1) {
            await sdk.send(new ChangeMessageVisibilityCommand({ QueueUrl: queue.url, ReceiptHandle: record.receiptHandle, VisibilityTimeout: 500 }));
            failures.push({ itemIdentifier: record.messageId });
          }
          if (record.body === 'poison') throw new Error('poison');
        }
        return { batchItemFailures: failures };
      },
      { maxConcurrency: 1 },
    );
    await until(() => queue.deadLetters.length === 1 && seen.flaky!.length === 2 && seen.backoff!.length === 2);
    expect(seen.flaky).toEqual([1, 2]);
    expect(seen.backoff).toEqual([1, 2]);
    expect(seen.poison).toEqual([1, 2, 3]);
    expect(queue.deadLetters.map((m) => m.body)).toEqual(['poison']);
    // The back-off (500 s) held its message past the plain redeliveries (50 s each, poison's second and third included).
    expect(sequence.indexOf('backoff#2')).toBeGreaterThan(sequence.indexOf('poison#3'));
    expect(sequence.indexOf('backoff#2')).toBeGreaterThan(sequence.indexOf('flaky#2'));
    await until(() => queue.size() === 0);
  });
});
