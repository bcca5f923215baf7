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
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { QUESTION } from './question.js';

const [dirA, dirB] = [process.argv[2]!, process.argv[3]!];
const ROUNDS = Number(process.argv[4] ?? 20);
const corpus = process.env.X12_CORPUS ?? join(process.cwd(), '../shared/corpus/x12');
const texts = readdirSync(corpus).filter((f) => f.endsWith('.271')).sort().map((f) => readFileSync(join(corpus, f), 'utf8'));
const Q = QUESTION;

async function load(dir: string, tag: string) {
  const outfile = join(process.cwd(), `bench/results/.ab-${tag}-${process.pid}.bundle.mjs`);
  await build({
    stdin: { contents: "export { interpret271 } from './lib/eligibility/interpret.ts';\nexport { readReply } from './lib/eligibility/reply.ts';\n", resolveDir: dir, loader: 'ts' },
    bundle: true, platform: 'node', format: 'esm', target: 'node22', outfile, logLevel: 'warning',
  });
  return (await import(pathToFileURL(outfile).href)) as { interpret271: (t: string, q: unknown) => unknown; readReply: (t: string) => unknown };
}
const A = await load(dirA, 'a');
const B = await load(dirB, 'b');
// Same answers?
for (const t of texts) if (JSON.stringify(A.interpret271(t, Q)) !== JSON.stringify(B.interpret271(t, Q))) { console.log('ANSWERS DIFFER'); break; }

const pass = (fn: (t: string) => unknown, reps: number) => {
  const start = performance.now();
  for (let r = 0; r < reps; r++) for (const t of texts) fn(t);
  return (performance.now() - start) / reps;
};
const whole = (m: typeof A) => (t: string) => m.interpret271(t, Q);
const read = (m: typeof A) => (t: string) => m.readReply(t);
const warmUntil = performance.now() + 3000;
while (performance.now() < warmUntil) { pass(whole(A), 1); pass(whole(B), 1); pass(read(A), 1); pass(read(B), 1); }
const s = { aw: [] as number[], bw: [] as number[], ar: [] as number[], br: [] as number[] };
const REPS = 10;
for (let r = 0; r < ROUNDS; r++) {
  if (r % 2 === 0) { s.aw.push(pass(whole(A), REPS)); s.bw.push(pass(whole(B), REPS)); s.ar.push(pass(read(A), REPS)); s.br.push(pass(read(B), REPS)); }
  else { s.bw.push(pass(whole(B), REPS)); s.aw.push(pass(whole(A), REPS)); s.br.push(pass(read(B), REPS)); s.ar.push(pass(read(A), REPS)); }
}
const med = (v: number[]) => { const x = [...v].sort((a, b) => a - b); return x[x.length >> 1]!; };
// paired ratios per round are more robust than ratio of medians on a noisy machine
const pr = (a: number[], b: number[]) => med(a.map((x, i) => b[i]! / x));
console.log(`whole: A ${med(s.aw).toFixed(2)} ms  B ${med(s.bw).toFixed(2)} ms  B/A paired ${pr(s.aw, s.bw).toFixed(3)}`);
console.log(`read:  A ${med(s.ar).toFixed(2)} ms  B ${med(s.br).toFixed(2)} ms  B/A paired ${pr(s.ar, s.br).toFixed(3)}`);
