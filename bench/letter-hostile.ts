/**
 * What a hostile model answer or notes file costs the letter route (docs/security.md#parsing-in-isolation,
 * docs/letter.md#the-models-answer), written to bench/results/letter-hostile.json: CPU seconds (every
 * thread of the process) and peak resident growth for
 *  - a model that streams 20 MB of text (the fake Messages API over loopback, run here),
 *  - a model that cites 20,000 sentences, each with a number that is in the notes,
 *  - notes PDFs of every bounded and hostile shape of test/fixtures/letter/hostile-pdfs.ts (190,000 tiny
 *    objects among them).
 * Target: each within 2 s of CPU. Each figure comes from a fresh process (bench/letter-hostile-probe.ts),
 * watched from here and killed past CAP_MIB or CAP_MS.
 *
 * Run: npx tsx bench/letter-hostile.ts
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BOUNDED_PDFS, HOSTILE_SHAPES } from '../test/fixtures/letter/hostile-pdfs.js';
import { manyCitations } from '../test/fixtures/letter/model-answers.js';
import { startFakeAnthropic } from '../test/support/anthropic-fake.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CAP_MIB = 2048;
const CAP_MS = 60_000;

export interface LetterHostileFigure {
  case: string;
  outcome: string;
  cpuSeconds: number | null;
  peakGrowthMiB: number;
}

function vmRssMiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

function probe(label: string, args: string[]): Promise<LetterHostileFigure> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/letter-hostile-probe.ts'), ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    let peak = 0;
    let killed: string | undefined;
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const watch = setInterval(() => {
      peak = Math.max(peak, vmRssMiB(child.pid!));
      if (!killed && (peak > CAP_MIB || performance.now() - started > CAP_MS)) {
        killed = peak > CAP_MIB ? `killed at ${CAP_MIB} MiB` : `killed after ${CAP_MS / 1000} s`;
        child.kill('SIGKILL');
      }
    }, 20);
    child.on('exit', () => {
      clearInterval(watch);
      const line = out.trim().split('\n').pop() ?? '';
      if (killed || !line.startsWith('{')) return resolve({ case: label, outcome: killed ?? 'crashed', cpuSeconds: null, peakGrowthMiB: Math.round(peak) });
      const result = JSON.parse(line) as { outcome: string; cpuMs: number; rssBeforeMiB: number };
      resolve({
        case: label,
        outcome: result.outcome,
        cpuSeconds: Math.round(result.cpuMs / 10) / 100,
        peakGrowthMiB: Math.max(0, Math.round(peak - result.rssBeforeMiB)),
      });
    });
  });
}

export async function measureLetterHostile(): Promise<LetterHostileFigure[]> {
  const fake = await startFakeAnthropic();
  try {
    const figures: LetterHostileFigure[] = [];
    fake.flood(20 * 1024 * 1024);
    figures.push(await probe('model streams 20 MB of text', ['flood', fake.url]));
    fake.answer(manyCitations(20_000));
    figures.push(await probe('model cites 20,000 numbered sentences', ['citations', fake.url]));
    for (const shape of [...Object.keys(BOUNDED_PDFS), ...HOSTILE_SHAPES]) figures.push(await probe(`notes: ${shape}`, ['notes', shape]));
    return figures;
  } finally {
    await fake.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureLetterHostile();
  for (const f of figures)
    console.log(`${f.case.padEnd(48)} ${String(f.cpuSeconds ?? '-').padStart(6)} s CPU  +${String(f.peakGrowthMiB).padStart(5)} MiB  ${f.outcome}`);
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/letter-hostile.json'), `${JSON.stringify(figures, null, 2)}\n`);
}
