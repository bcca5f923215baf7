/**
 * A/B of two versions of the reader in one process, for a shared, noisy machine
 * (docs/benchmarks.md#reading-271-replies): bundles lib/ of directory A and of directory B (e.g. a
 * `git archive <commit> lib | tar -x -C <dir>` of the version before a change), checks that both
 * give the same answers, warms both, then interleaves rounds (A then B, B then A…) timing
 * interpret271 and readReply over the whole corpus. Prints the medians and the median of the
 * per-round ratios B/A (below 1: B is faster); keep a change only when it measures faster.
 * Run: node --import tsx bench/x12-ab.ts <dirA> <dirB> [rounds]
 */
import { build } from 'esbuild';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { corpus271 } from './corpus.js';
import { QUESTION } from './question.js';

const [dirA, dirB] = [process.argv[2]!, process.argv[3]!];
const ROUNDS = Number(process.argv[4] ?? 20);
const texts = corpus271().files.map((f) => f.text);
const Q = QUESTION;

async function load(dir: string, tag: string) {
  const outfile = join(process.cwd(), `bench/results/.ab-${tag}-${process.pid}.bundle.mjs`);
  await build({
    stdin: {
      contents: "export { interpret271 } from './lib/eligibility/interpret.ts';\nexport { readReply } from './lib/eligibility/reply.ts';\n",
      resolveDir: dir,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    outfile,
    logLevel: 'warning',
  });
  return (await import(pathToFileURL(outfile).href)) as { interpret271: (t: string, q: unknown) => unknown; readReply: (t: string) => unknown };
}
// Loaded A, B, B, A: in one process the bundle loaded later can time differently (an A/A run shows it),
// so each version is loaded once early and once late, and a version's time is the sum of its two copies.
const A = await load(dirA, 'a1');
const B = await load(dirB, 'b1');
const B2 = await load(dirB, 'b2');
const A2 = await load(dirA, 'a2');
// Same answers?
for (const t of texts)
  if (JSON.stringify(A.interpret271(t, Q)) !== JSON.stringify(B.interpret271(t, Q))) {
    console.log('ANSWERS DIFFER');
    break;
  }

/** Time of `reps` calls of fn on one text, in ms. */
const time = (fn: (t: string) => unknown, text: string, reps: number): number => {
  const start = performance.now();
  for (let r = 0; r < reps; r++) fn(text);
  return performance.now() - start;
};
type Reader = typeof A;
const whole = (m: Reader) => (t: string) => m.interpret271(t, Q);
const read = (m: Reader) => (t: string) => m.readReply(t);
const warmUntil = performance.now() + 3000;
while (performance.now() < warmUntil)
  for (const t of texts)
    for (const m of [A, B, B2, A2]) {
      whole(m)(t);
      read(m)(t);
    }

/**
 * One round: every file, A and B back to back on it (which goes first alternates), so a machine
 * that slows down mid-round slows both alike. Returns the round's totals over the corpus.
 */
const REPS = 5;
function roundOf(r: number, of: (m: Reader) => (t: string) => unknown): [number, number] {
  let a = 0;
  let b = 0;
  texts.forEach((t, i) => {
    const order: [Reader, 'a' | 'b'][] =
      (r + i) % 2 === 0
        ? [
            [A, 'a'],
            [B, 'b'],
            [B2, 'b'],
            [A2, 'a'],
          ]
        : [
            [B2, 'b'],
            [A2, 'a'],
            [A, 'a'],
            [B, 'b'],
          ];
    for (const [m, side] of order) {
      const ms = time(of(m), t, REPS);
      if (side === 'a') a += ms;
      else b += ms;
    }
  });
  return [a, b];
}
const med = (v: number[]) => {
  const x = [...v].sort((p, q) => p - q);
  return x[x.length >> 1]!;
};
for (const [label, of] of [
  ['whole', whole],
  ['read', read],
] as const) {
  const ratios: number[] = [];
  const as: number[] = [];
  const bs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const [a, b] = roundOf(r, of);
    as.push(a / 2 / REPS);
    bs.push(b / 2 / REPS);
    ratios.push(b / a);
  }
  console.log(
    `${label.padEnd(5)}: A ${med(as).toFixed(3)} ms  B ${med(bs).toFixed(3)} ms per corpus pass;  B/A median of ${ROUNDS} rounds ${med(ratios).toFixed(3)}`,
  );
}
