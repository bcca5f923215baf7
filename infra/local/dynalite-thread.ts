import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * dynalite on a thread of its own (docs/batch.md#local): the local server's DynamoDB does its work
 * beside the functions instead of on their event loop (in AWS, DynamoDB is not in the Lambda's process
 * either), and what it stores is off the functions' heap. The thread runs plain CommonJS (no loader
 * hooks) and answers on 127.0.0.1 with an ephemeral port.
 */

const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const server = require(workerData.module)(workerData.options);
server.once('error', (error) => parentPort.postMessage({ error: String(error) }));
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', () => server.close(() => parentPort.postMessage({ closed: true })));
`;

export async function startDynaliteThread(options: { path?: string } = {}): Promise<{ endpoint: string; close(): Promise<void> }> {
  const module = createRequire(import.meta.url).resolve('dynalite');
  const worker = new Worker(THREAD, {
    eval: true,
    execArgv: [],
    workerData: { module, options: { createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, ...(options.path ? { path: options.path } : {}) } },
  });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', (message: { port?: number; error?: string }) => (message.port ? resolve(message.port) : reject(new Error(message.error))));
    worker.once('error', reject);
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      // Answered when the server has closed, or at once if the thread has already ended.
      await new Promise<void>((resolve) => {
        worker.once('message', () => resolve());
        worker.once('exit', () => resolve());
        worker.postMessage('close');
      });
      await worker.terminate();
    },
  };
}
