import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * dynalite on a thread of its own (docs/batch.md#local): the local server's DynamoDB does its work
 * beside the functions instead of on their event loop (in AWS, DynamoDB is not in the Lambda's process
 * either), and what it stores is off the functions' heap. The thread runs plain CommonJS (no loader
 * hooks) and answers on 127.0.0.1 with an ephemeral port.
 *
 * A thread can run several dynalite servers, each with its own tables and data: `npm start` opens one
 * on a thread of its own (startDynaliteThread); tests open one per local environment on a thread they
 * keep for the whole process (test/support/local-environment.ts), so each environment does not boot a thread
 * and load dynalite again.
 */

const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const dynalite = require(workerData.module);
const servers = new Map();
parentPort.on('message', ({ id, open }) => {
  if (open) {
    const server = dynalite(open);
    // Every error is answered (an unhandled one would end the thread, and with it every other server on it);
    // the one before listening is the answer to the open, later ones reach no one still waiting and are dropped.
    server.on('error', (error) => parentPort.postMessage({ id, error: String(error) }));
    server.listen(0, '127.0.0.1', () => {
      servers.set(id, server);
      parentPort.postMessage({ id, port: server.address().port });
    });
    return;
  }
  const server = servers.get(id);
  servers.delete(id);
  if (server) server.close(() => parentPort.postMessage({ id, closed: true }));
  else parentPort.postMessage({ id, closed: true });
});
`;

export interface LocalDynamo {
  endpoint: string;
  close(): Promise<void>;
}

interface ThreadMessage {
  id?: string;
  port?: number;
  error?: string;
  closed?: boolean;
}

/** A thread ready to run dynalite servers (openDynalite); it ends when terminated or with the process. */
export function startDynaliteHost(): Worker {
  const module = createRequire(import.meta.url).resolve('dynalite');
  return new Worker(THREAD, { eval: true, execArgv: [], workerData: { module } });
}

/** Asks the thread and waits for its answer about `id`, or for the thread's end. */
function ask(thread: Worker, message: { id: string; open?: object }): Promise<ThreadMessage> {
  // A thread that has already ended answers nothing and never exits again: say so at once.
  if (thread.threadId === -1) return Promise.resolve({ id: message.id, error: 'the dynalite thread has ended', closed: true });
  return new Promise((resolve) => {
    const onMessage = (answer: ThreadMessage) => {
      if (answer.id === message.id) settle(answer);
    };
    const onEnd = (error?: unknown) => settle({ id: message.id, error: error ? String(error) : 'the dynalite thread has ended', closed: true });
    // Listeners are removed once answered: a thread kept for the process outlives whoever asked.
    const settle = (answer: ThreadMessage) => {
      thread.off('message', onMessage).off('error', onEnd).off('exit', onEnd);
      resolve(answer);
    };
    thread.on('message', onMessage).once('error', onEnd).once('exit', onEnd);
    thread.postMessage(message);
  });
}

/** Starts a dynalite server of its own (its own tables and data) on `thread`. */
export async function openDynalite(thread: Worker, options: { path?: string } = {}): Promise<LocalDynamo> {
  const id = randomUUID();
  const answer = await ask(thread, { id, open: { createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, ...(options.path ? { path: options.path } : {}) } });
  if (!answer.port) throw new Error(answer.error);
  return {
    endpoint: `http://127.0.0.1:${answer.port}`,
    // Answered when the server and its store have closed, or at once if the thread has already ended.
    close: async () => {
      await ask(thread, { id });
    },
  };
}

/** dynalite on a thread of its own, which ends when it is closed. */
export async function startDynaliteThread(options: { path?: string } = {}): Promise<LocalDynamo> {
  const thread = startDynaliteHost();
  try {
    const dynamo = await openDynalite(thread, options);
    return {
      endpoint: dynamo.endpoint,
      close: async () => {
        await dynamo.close();
        await thread.terminate();
      },
    };
  } catch (error) {
    await thread.terminate();
    throw error;
  }
}
