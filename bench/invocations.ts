/**
 * Warm in-process invocations per second of the eligibility handler (not a test): the mock event
 * (events/eligibility-mock-1.json) in a tight loop, and the real path against the loopback sandbox
 * clearinghouse + dynalite (events/eligibility-real.json). Each run is a child process with stdout
 * discarded, so Powertools' per-request log line is paid for (as in Lambda) without flooding the
 * terminal; the child reports over IPC. One core: the loop is sequential, one request at a time.
 *
 * Run: npx tsx bench/invocations.ts   → prints and writes bench/results/invocations.json
 * Exported: measureInvocations() for bench/run.ts.
 */
import { fork } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const self = fileURLToPath(import.meta.url);

export type InvocationMode = 'mock' | 'real';
export type LogLevel = 'INFO' | 'SILENT';

export interface InvocationSample {
  mode: InvocationMode;
  logLevel: LogLevel;
  /** Median over rounds of invocations per second. */
  perSecond: number;
  rounds: number[];
  invocations: number;
  /** Status codes seen (all must be 200 for the figure to mean anything). */
  statuses: Record<string, number>;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Runs in the child: warm up, then `rounds` timed windows of `windowMs` each. */
async function child(mode: InvocationMode, rounds: number, windowMs: number): Promise<Omit<InvocationSample, 'logLevel'>> {
  let closeEnv: (() => Promise<void>) | undefined;
  if (mode === 'real') {
    const { startLocalEnvironment } = await import('../infra/dev/local/environment.js');
    const env = await startLocalEnvironment(process.env);
    closeEnv = env.close;
  }
  const { handler } = (await import('../functions/eligibility/index.js')) as {
    handler: (event: unknown, context: unknown) => Promise<{ statusCode: number }>;
  };
  const template = JSON.parse(readFileSync(join(root, 'events', mode === 'mock' ? 'eligibility-mock-1.json' : 'eligibility-real.json'), 'utf8'));
  const context = { functionName: 'bench', awsRequestId: 'bench', getRemainingTimeInMillis: () => 29_000 };
  const statuses: Record<string, number> = {};
  let n = 0;
  // middy's JSON parser replaces event.body, so every invocation gets a fresh (shallow) event.
  const once = async (): Promise<void> => {
    const event = { ...template, requestContext: { ...template.requestContext, requestId: `bench-${n++}` } };
    const result = await handler(event, context);
    statuses[result.statusCode] = (statuses[result.statusCode] ?? 0) + 1;
  };
  const warmUntil = performance.now() + 1500;
  while (performance.now() < warmUntil) await once();
  const perRound: number[] = [];
  let invocations = 0;
  for (let r = 0; r < rounds; r++) {
    let count = 0;
    const started = performance.now();
    const until = started + windowMs;
    while (performance.now() < until) {
      await once();
      count++;
    }
    perRound.push(Math.round((count * 1000) / (performance.now() - started)));
    invocations += count;
  }
  await closeEnv?.();
  return { mode, perSecond: median(perRound), rounds: perRound, invocations, statuses };
}

export async function measureInvocations(
  mode: InvocationMode,
  options: { logLevel?: LogLevel; rounds?: number; windowMs?: number } = {},
): Promise<InvocationSample> {
  const logLevel = options.logLevel ?? 'INFO';
  const rounds = options.rounds ?? 5;
  const windowMs = options.windowMs ?? 400;
  const proc = fork(self, ['--child', mode, String(rounds), String(windowMs)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    // No API_TOKENS etc. leak in from the caller; the real run gets its sandboxes from startLocalEnvironment.
    env: { PATH: process.env.PATH, HOME: process.env.HOME, POWERTOOLS_LOG_LEVEL: logLevel, NODE_ENV: 'production' },
  });
  const result = await new Promise<Omit<InvocationSample, 'logLevel'>>((resolve, reject) => {
    proc.once('message', (message) => resolve(message as Omit<InvocationSample, 'logLevel'>));
    proc.once('exit', (code) => reject(new Error(`invocation bench child exited with ${code}`)));
  });
  proc.kill();
  return { ...result, logLevel };
}

const [, , flag, childMode, childRounds, childWindow] = process.argv;
if (flag === '--child') {
  const result = await child(childMode as InvocationMode, Number(childRounds), Number(childWindow));
  process.send!(result, () => process.exit(0));
} else if (process.argv[1] === self) {
  const samples: InvocationSample[] = [];
  for (const [mode, logLevel] of [
    ['mock', 'INFO'],
    ['mock', 'SILENT'],
    ['real', 'INFO'],
  ] as const) {
    samples.push(await measureInvocations(mode, { logLevel, windowMs: mode === 'real' ? 400 : 400 }));
    const s = samples.at(-1)!;
    console.log(
      `${`${s.mode} (log ${s.logLevel})`.padEnd(22)} ${String(s.perSecond).padStart(8)} inv/s   rounds ${s.rounds.join(' ')}   statuses ${JSON.stringify(s.statuses)}`,
    );
  }
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(
    join(root, 'bench/results/invocations.json'),
    `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, samples }, null, 2)}\n`,
  );
}
