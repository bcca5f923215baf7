import type { Worker } from 'node:worker_threads';
import { startDynaliteHost } from '../../infra/dev/local/dynalite-thread.js';
import { startLocalEnvironment as startEnvironment, type LocalEnvironment, type LocalEnvironmentOptions } from '../../infra/dev/local/environment.js';

export type { LocalEnvironment };

/** test/environment.js: a Map the worker process keeps for every file it runs. */
const PROCESS_WIDE = Symbol.for('eligibility-service.test.processWide');
const THREAD = 'dynalite-thread';

/**
 * The dynalite thread this test process keeps for every local environment it starts: booting a thread and
 * loading dynalite (about 0.2 CPU-s) is paid once per process instead of once per test file. It is unref'd,
 * so it never keeps the process alive, and started again if it has ended.
 */
function processDynaliteThread(): Worker {
  const shared = (globalThis as unknown as Record<symbol, Map<string, Worker>>)[PROCESS_WIDE];
  if (!shared) throw new Error('test/environment.js is not the test environment: no process-wide Map');
  const kept = shared.get(THREAD);
  // An ended thread's threadId is -1.
  if (kept && kept.threadId !== -1) return kept;
  const thread = startDynaliteHost();
  thread.unref();
  shared.set(THREAD, thread);
  return thread;
}

/**
 * The local environment as `npm start` sets it up (infra/dev/local/environment.ts), except that its dynalite
 * server (its own, with its own tables and data) runs on the thread this process keeps for every
 * environment instead of on a thread of its own.
 */
export function startLocalEnvironment(env: Record<string, string | undefined> = process.env, options: LocalEnvironmentOptions = {}): Promise<LocalEnvironment> {
  return startEnvironment(env, { dynaliteThread: processDynaliteThread(), ...options });
}
