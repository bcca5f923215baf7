import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Untrusted documents are parsed in isolation (docs/security.md#parsing-in-isolation): pdf-lib and
 * pdf.js read a letter's notes in a worker thread (./pdf-worker.mjs) with a heap limit of
 * PARSE_HEAP_MB and a deadline of PARSE_DEADLINE_MS of CPU time from the moment it is ready. Past
 * either, the worker is terminated and the file is `too-complex`; meanwhile the main thread keeps
 * answering other requests. One worker per document: nothing of one patient's file stays for the next.
 *
 * The deadline is counted in the process's CPU time (what the 2 s budget of a request is about),
 * sampled every CHECK_EVERY_MS: a wall-clock deadline would refuse ordinary notes on a busy machine
 * (100 pages take 0.3–0.5 s of CPU, but 1.7 s of wall time at load 13). It counts every thread of
 * the process, so it errs towards stopping early when other work runs. A worker that has not
 * answered after WALL_LIMIT_MS of wall time (loading included) is stopped whatever it is doing.
 *
 * The worker is `pdf-worker.mjs` beside this module: the source file itself (plain JavaScript), or in
 * a Lambda bundle its own bundle beside the handler (infra/cdk/functions.ts builds it).
 */

/** What the worker answers: the page count and each page's text (null when pdf.js could not read it). */
export type WorkerAnswer = { kind: 'read'; pages: number; text: string[] | null } | { kind: 'encrypted' } | { kind: 'unreadable' };

/** What the worker is sent: the file and the page limit past which its text is not read. */
interface WorkerJob {
  bytes: Uint8Array;
  maxPages: number;
}

/** CPU time the libraries may take over one file, in ms (module loading not included). */
export const PARSE_DEADLINE_MS = 1_500;
/** How often the CPU time is sampled. */
const CHECK_EVERY_MS = 25;
/** Wall time after which a worker that has not answered is stopped anyway (loading included). */
const WALL_LIMIT_MS = 30_000;
/** The worker's old-generation heap, in MiB. */
export const PARSE_HEAP_MB = 256;

export type IsolatedParse = WorkerAnswer | { kind: 'too-complex' };

export interface ParseOptions {
  maxPages: number;
  /** Test seam: the deadline in ms of CPU time (PARSE_DEADLINE_MS by default). */
  deadlineMs?: number;
  /** Test seam: the CPU clock in ms (the process's user + system time by default). */
  cpuMs?: () => number;
  /** Test seam: called when the worker has the file and the deadline runs. */
  onParsing?: () => void;
}

const processCpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const here = dirname(fileURLToPath(import.meta.url));
/** The worker's file name, beside this module in source and beside the handler in a bundle. */
export const WORKER_FILE = 'pdf-worker.mjs';

/** The worker does not take the parent's command-line flags: a `--import tsx` in development would cost it 0.2 s of CPU. */
const startWorker = (): Worker => new Worker(join(here, WORKER_FILE), { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: PARSE_HEAP_MB } });

/** Reads `bytes` in a fresh worker: its page count and text, or why not (`too-complex` past the heap limit or the deadline). */
export function parseInWorker(bytes: Uint8Array, options: ParseOptions): Promise<IsolatedParse> {
  return new Promise((resolve, reject) => {
    const worker = startWorker();
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    // A worker that never gets ready or never answers, whatever it is doing, is stopped too.
    const wallTimer = setTimeout(() => settle({ kind: 'too-complex' }), WALL_LIMIT_MS);
    const settle = (outcome: IsolatedParse | Error) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      clearTimeout(wallTimer);
      void worker.terminate();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    worker.on('message', (message: WorkerAnswer | { kind: 'ready' }) => {
      if (message.kind !== 'ready') return settle(message);
      const cpuMs = options.cpuMs ?? processCpuMs;
      const deadline = cpuMs() + (options.deadlineMs ?? PARSE_DEADLINE_MS);
      timer = setInterval(() => {
        if (cpuMs() >= deadline) settle({ kind: 'too-complex' });
      }, CHECK_EVERY_MS);
      const job: WorkerJob = { bytes: new Uint8Array(bytes), maxPages: options.maxPages };
      worker.postMessage(job, [job.bytes.buffer as ArrayBuffer]);
      options.onParsing?.();
    });
    // Past the heap limit the worker dies with ERR_WORKER_OUT_OF_MEMORY: the file is too complex.
    // Any other error is ours (a missing worker file), not the file's.
    worker.on('error', (error: Error & { code?: string }) => settle(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { kind: 'too-complex' } : error));
    worker.on('exit', () => settle({ kind: 'too-complex' }));
  });
}
