import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { listen } from '../listen.js';

/**
 * An in-process stand-in for SQS and Lambda's event source mapping (docs/batch.md#local), so
 * `npm start` runs the very submit, worker and webhook code Lambda runs: the SQS SDK reaches it over
 * loopback with SQS's JSON protocol (SendMessage, SendMessageBatch, ChangeMessageVisibility,
 * DeleteMessage). What a user can observe of SQS holds here:
 *   - at-least-once: a message whose consumer fails or dies comes back once its visibility runs out;
 *   - visibility back-off: ChangeMessageVisibility hides a received message for that long;
 *   - redrive: a message received more than `maxReceiveCount` times goes to the queue's dead letters;
 *   - fairness: ready messages are taken round-robin across message groups (SQS fair queues), so one
 *     client's 10,000 items do not starve another's 20;
 *   - the cap: a consumer never runs more than `maxConcurrency` invocations at once, and with
 *     `maxConcurrencyPerGroup` no more than that many at once for one message group (the webhook
 *     queue's slots per client: one client's hanging receiver never holds another client's webhook).
 * `msPerSecond` scales every SQS second (tests shorten it); nothing here runs in AWS.
 */

export interface QueueOptions {
  visibilityTimeoutSeconds: number;
  maxReceiveCount: number;
}

interface Message {
  id: string;
  body: string;
  group: string;
  receiveCount: number;
  sentAt: number;
  receiptHandle?: string;
  visibleAt: number;
}

export interface ConsumeOptions {
  maxConcurrency: number;
  /** At most this many messages of one group in flight in the consumer at once (default: no limit but maxConcurrency). */
  maxConcurrencyPerGroup?: number;
  batchSize?: number;
}

export type Consumer = (event: SQSEvent) => Promise<SQSBatchResponse | undefined>;

export interface LocalQueue {
  readonly name: string;
  readonly url: string;
  /** Dead letters (the redrive queue). */
  readonly deadLetters: readonly { id: string; body: string }[];
  /** Messages not yet deleted or dead (ready, in flight or delayed). */
  size(): number;
  /** Starts the event source mapping: at most `maxConcurrency` invocations (and `maxConcurrencyPerGroup` per message group), `batchSize` records each. */
  consume(consumer: Consumer, options: ConsumeOptions): void;
}

export interface LocalSqs {
  endpoint: string;
  queue(name: string, options: QueueOptions): LocalQueue;
  close(): Promise<void>;
}

const ACCOUNT = '000000000000';
const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

class Queue implements LocalQueue {
  /** Ready messages per group, in send order; groups taken in turn. */
  private readonly ready = new Map<string, Message[]>();
  private turn: string[] = [];
  /** Received and not deleted, by receipt handle; delayed ones wait in `hidden`. */
  private readonly inFlight = new Map<string, Message>();
  readonly deadLetters: { id: string; body: string }[] = [];
  private consumer?: { run: Consumer; maxConcurrency: number; perGroup: number; batchSize: number; active: number };
  /** Messages of each group the consumer is running now (for `maxConcurrencyPerGroup`). */
  private readonly activeInGroup = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    readonly name: string,
    readonly url: string,
    private readonly options: QueueOptions,
    private readonly msPerSecond: number,
  ) {}

  size(): number {
    let n = this.inFlight.size;
    for (const list of this.ready.values()) n += list.length;
    return n;
  }

  send(body: string, group: string): Message {
    const message: Message = { id: randomUUID(), body, group, receiveCount: 0, sentAt: Date.now(), visibleAt: 0 };
    this.makeReady(message);
    this.pump();
    return message;
  }

  private makeReady(message: Message): void {
    delete message.receiptHandle;
    const list = this.ready.get(message.group);
    if (list) list.push(message);
    else {
      this.ready.set(message.group, [message]);
      this.turn.push(message.group);
    }
  }

  /** Up to `n` ready messages, one group after another (fair across groups), skipping groups with `perGroup` running. */
  private receive(n: number, perGroup: number): Message[] {
    const taken: Message[] = [];
    const full = (group: string) => (this.activeInGroup.get(group) ?? 0) + taken.filter((m) => m.group === group).length >= perGroup;
    let looked = 0;
    while (taken.length < n && looked < this.turn.length) {
      const group = this.turn.shift()!;
      if (full(group)) {
        this.turn.push(group);
        looked++;
        continue;
      }
      looked = 0;
      const list = this.ready.get(group)!;
      const message = list.shift()!;
      if (list.length > 0) this.turn.push(group);
      else this.ready.delete(group);
      message.receiveCount++;
      if (message.receiveCount > this.options.maxReceiveCount) {
        this.deadLetters.push({ id: message.id, body: message.body });
        continue;
      }
      message.receiptHandle = randomUUID();
      message.visibleAt = Date.now() + this.options.visibilityTimeoutSeconds * this.msPerSecond;
      this.inFlight.set(message.receiptHandle, message);
      taken.push(message);
    }
    this.schedule();
    return taken;
  }

  changeVisibility(receiptHandle: string, seconds: number): boolean {
    const message = this.inFlight.get(receiptHandle);
    if (!message) return false;
    message.visibleAt = Date.now() + seconds * this.msPerSecond;
    this.schedule();
    return true;
  }

  delete(receiptHandle: string): void {
    this.inFlight.delete(receiptHandle);
  }

  /** Messages whose visibility ran out are ready again; wakes up when the next one will be. */
  private schedule(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const [handle, message] of this.inFlight) {
      if (message.visibleAt <= now) {
        this.inFlight.delete(handle);
        this.makeReady(message);
      } else next = Math.min(next, message.visibleAt);
    }
    if (Number.isFinite(next)) {
      this.timer = setTimeout(
        () => {
          this.schedule();
          this.pump();
        },
        Math.max(1, next - now),
      );
      this.timer.unref();
    }
  }

  consume(run: Consumer, options: ConsumeOptions): void {
    this.consumer = {
      run,
      maxConcurrency: options.maxConcurrency,
      perGroup: options.maxConcurrencyPerGroup ?? Number.POSITIVE_INFINITY,
      batchSize: options.batchSize ?? 1,
      active: 0,
    };
    this.pump();
  }

  private pump(): void {
    const consumer = this.consumer;
    if (!consumer || this.closed) return;
    while (consumer.active < consumer.maxConcurrency && this.turn.length > 0) {
      const messages = this.receive(consumer.batchSize, consumer.perGroup);
      if (messages.length === 0) break;
      consumer.active++;
      const groups = messages.map((message) => message.group);
      for (const group of groups) this.activeInGroup.set(group, (this.activeInGroup.get(group) ?? 0) + 1);
      void this.invoke(consumer.run, messages).finally(() => {
        consumer.active--;
        for (const group of groups) {
          const left = (this.activeInGroup.get(group) ?? 1) - 1;
          if (left > 0) this.activeInGroup.set(group, left);
          else this.activeInGroup.delete(group);
        }
        this.pump();
      });
    }
  }

  private async invoke(run: Consumer, messages: Message[]): Promise<void> {
    const records = messages.map((message) => record(message, this.url, this.name));
    let failed: Set<string>;
    try {
      const answer = await run({ Records: records });
      failed = new Set((answer?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch {
      // A consumer that throws fails the whole batch: every message comes back after its visibility.
      failed = new Set(messages.map((message) => message.id));
    }
    for (const message of messages) if (!failed.has(message.id) && message.receiptHandle) this.delete(message.receiptHandle);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }
}

function record(message: Message, _url: string, name: string): SQSRecord {
  return {
    messageId: message.id,
    receiptHandle: message.receiptHandle!,
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(message.receiveCount),
      SentTimestamp: String(message.sentAt),
      SenderId: ACCOUNT,
      ApproximateFirstReceiveTimestamp: String(message.sentAt),
      MessageGroupId: message.group,
    } as SQSRecord['attributes'],
    messageAttributes: {},
    md5OfBody: md5(message.body),
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:us-east-1:${ACCOUNT}:${name}`,
    awsRegion: 'us-east-1',
  };
}

type Json = Record<string, unknown>;

async function readJson(req: IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Json;
}

export async function startLocalSqs(options: { msPerSecond?: number } = {}): Promise<LocalSqs> {
  const msPerSecond = options.msPerSecond ?? 1000;
  const queues = new Map<string, Queue>();
  let endpoint = '';
  const queueOf = (url: unknown): Queue | undefined => queues.get(String(url).split('/').pop() ?? '');

  const actions: Record<string, (input: Json) => Json | undefined> = {
    SendMessage: (input) => {
      const queue = queueOf(input.QueueUrl);
      if (!queue) return undefined;
      const body = String(input.MessageBody);
      const message = queue.send(body, String(input.MessageGroupId ?? ''));
      return { MessageId: message.id, MD5OfMessageBody: md5(body) };
    },
    SendMessageBatch: (input) => {
      const queue = queueOf(input.QueueUrl);
      if (!queue) return undefined;
      const entries = input.Entries as { Id: string; MessageBody: string; MessageGroupId?: string }[];
      const Successful = entries.map((entry) => ({
        Id: entry.Id,
        MessageId: queue.send(entry.MessageBody, entry.MessageGroupId ?? '').id,
        MD5OfMessageBody: md5(entry.MessageBody),
      }));
      return { Successful, Failed: [] };
    },
    ChangeMessageVisibility: (input) => {
      const queue = queueOf(input.QueueUrl);
      return queue?.changeVisibility(String(input.ReceiptHandle), Number(input.VisibilityTimeout)) ? {} : undefined;
    },
    DeleteMessage: (input) => {
      const queue = queueOf(input.QueueUrl);
      if (!queue) return undefined;
      queue.delete(String(input.ReceiptHandle));
      return {};
    },
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const action = String(req.headers['x-amz-target'] ?? '').replace(/^AmazonSQS\./, '');
      const input = await readJson(req).catch(() => ({}));
      const output = actions[action]?.(input);
      res.writeHead(output ? 200 : 400, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify(output ?? { __type: 'com.amazonaws.sqs#InvalidParameterValue', message: `${action}: no such queue or receipt handle` }));
    })();
  });
  endpoint = await listen(server, { port: 0, host: '127.0.0.1' });

  return {
    endpoint,
    queue(name, queueOptions) {
      const queue = new Queue(name, `${endpoint}/${ACCOUNT}/${name}`, queueOptions, msPerSecond);
      queues.set(name, queue);
      return queue;
    },
    close: async () => {
      for (const queue of queues.values()) queue.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
