/**
 * The clearinghouse for bench/batch.ts, in a process of its own as Stedi is: the sandbox clearinghouse
 * behind the loopback gate that adds latency and counts calls held at once. Spawned with an IPC
 * channel; it sends `{url}` when listening, and answers every message (`{delayMs?, resetMax?, close?}`)
 * with the gate's `{maxInFlight, calls}` after applying it. Its CPU is not the server's: in the bench's
 * own process the sandbox's X12 writing and the gate's forwarding would be counted against the worker.
 */
import { startClearinghouseSandbox } from '../infra/dev/sandbox/clearinghouse.js';
import { startUpstreamGate } from '../test/batch/upstream-gate.js';

export interface UpstreamCommand {
  delayMs?: number;
  resetMax?: boolean;
  close?: boolean;
}
export interface UpstreamStats {
  maxInFlight: number;
  calls: number;
}

const sandbox = await startClearinghouseSandbox({ apiKey: process.env.BENCH_UPSTREAM_KEY ?? 'bench' });
const gate = await startUpstreamGate(sandbox.url);
process.on('message', (command: UpstreamCommand) => {
  if (command.delayMs !== undefined) gate.delayMs = command.delayMs;
  if (command.resetMax) gate.maxInFlight = 0;
  const stats: UpstreamStats = { maxInFlight: gate.maxInFlight, calls: gate.keys.length };
  if (!command.close) return void process.send!(stats);
  void Promise.all([gate.close(), sandbox.close()]).then(() => process.send!(stats, () => process.exit(0)));
});
process.send!({ url: gate.url });
