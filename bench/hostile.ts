/**
 * Hostile-input figures (docs/security.md), written to bench/results/hostile.json:
 *  - for every PDF bomb shape: time and memory with the decompression guard (readProcedureNotes),
 *    and what it cost before the guard: pdf-lib's load (what the letter route did), load plus
 *    decoding every stream (what a text-layer reader does), and that decoding inside a worker with
 *    resourceLimits (the alternative to a pre-scan);
 *  - for every fake or hostile PDF structure (test/fixtures/letter/hostile-pdfs.ts) and the costliest
 *    files the gate accepts: CPU time and memory of readProcedureNotes (the guard and the isolated parse), and of
 *    pdf-lib's load and page count without it (what the letter route did before; target: any input
 *    up to the body limit answered within 2 s of CPU);
 *  - the strict JSON parser against JSON.parse on a 4 MiB letter body and a 100k-key body.
 * Each figure comes from a fresh process (bench/hostile-probe.ts). Unguarded runs are watched from
 * here: killed once their resident memory passes CAP_MIB or they run past CAP_MS, and reported so.
 */
import { spawn } from 'node:child_process';
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BOMB_INFLATED_MIB, BOMB_SHAPES, type BombShape } from '../test/fixtures/letter/bombs.js';
import { COSTLY_ACCEPTED_PDFS, HOSTILE_SHAPES } from '../test/fixtures/letter/hostile-pdfs.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CAP_MIB = Number(process.env.HOSTILE_CAP_MIB ?? 2048);
const CAP_MS = Number(process.env.HOSTILE_CAP_MS ?? 10_000);

export interface ProbeResult {
  mode: string;
  shape?: string;
  fileBytes?: number;
  outcome: string;
  ms: number;
  /** CPU time of the probe's call (all threads), where the probe finished. */
  cpuMs?: number;
  rssGrowthMiB?: number;
  peakGrowthMiB?: number;
  peakRssMiB: number;
}

function vmRssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Guarded runs get a cap far above their cost: the cap is there for the unguarded ones. */
function probe(args: string[], capMs = CAP_MS): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/hostile-probe.ts'), ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    let peak = 0;
    let killed: string | undefined;
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const watch = setInterval(() => {
      peak = Math.max(peak, vmRssMiB(child.pid!));
      const elapsed = performance.now() - started;
      if (!killed && (peak > CAP_MIB || elapsed > capMs)) {
        killed = peak > CAP_MIB ? `killed at ${CAP_MIB} MiB` : `killed after ${capMs / 1000} s`;
        child.kill('SIGKILL');
      }
    }, 50);
    child.on('exit', () => {
      clearInterval(watch);
      const line = out.trim().split('\n').pop() ?? '';
      if (!killed && line.startsWith('{')) return resolve(JSON.parse(line) as ProbeResult);
      resolve({ mode: args[0]!, shape: args[1], outcome: killed ?? 'crashed', ms: Math.round(performance.now() - started), peakRssMiB: Math.round(peak) });
    });
  });
}

export interface HostileReport {
  capMiB: number;
  capMs: number;
  bombs: Array<{ shape: BombShape; inflatedMiB: number; guard: ProbeResult; before: ProbeResult; beforeDecode: ProbeResult; worker: ProbeResult }>;
  /** `textLayer`: pdf.js reading the file, for shapes aimed at it (page content). */
  structure: Array<{ shape: string; gate: ProbeResult; unguarded: ProbeResult; textLayer?: ProbeResult }>;
  json: Record<string, number>;
}

const rows: HostileReport['bombs'] = [];
// HOSTILE_SHAPES=a,b runs only those shapes (for a quick look).
const only = process.env.HOSTILE_SHAPES?.split(',');
for (const shape of BOMB_SHAPES.filter((s) => !only || only.includes(s))) {
  const mib = String(BOMB_INFLATED_MIB[shape]);
  process.stderr.write(`bench: hostile ${shape}…\n`);
  const guard = await probe(['guard', shape, mib], 60_000);
  const before = await probe(['load', shape, mib]);
  const beforeDecode = await probe(['decode', shape, mib]);
  const worker = await probe(['worker', shape, mib]);
  rows.push({ shape, inflatedMiB: BOMB_INFLATED_MIB[shape], guard, before, beforeDecode, worker });
}
const structure: HostileReport['structure'] = [];
for (const shape of [...HOSTILE_SHAPES, ...Object.keys(COSTLY_ACCEPTED_PDFS)].filter((s) => !only || only.includes(s))) {
  process.stderr.write(`bench: hostile structure ${shape}…\n`);
  const gate = await probe(['gate', shape], 60_000);
  const unguarded = await probe(['parse', shape]);
  const textLayer = shape.endsWith('operators') ? await probe(['textlayer', shape]) : undefined;
  structure.push({ shape, gate, unguarded, ...(textLayer ? { textLayer } : {}) });
}
const json = (await probe(['json'], 60_000)) as unknown as Record<string, number>;
const report: HostileReport = { capMiB: CAP_MIB, capMs: CAP_MS, bombs: rows, structure, json };
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, 'bench/results/hostile.json'), `${JSON.stringify(report, null, 2)}\n`);
