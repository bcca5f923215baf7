/**
 * Where interpret271's time goes, layer by layer (docs/eligibility.md#how-the-271-is-read), over the
 * corpus 271s ($X12_CORPUS, else ../shared/corpus/x12; fixtures when no corpus).
 * Run: npx tsx bench/x12-profile.ts [interpret]
 * For a CPU profile with line numbers, bundle it first (tsx wraps every closure in __name, which
 * distorts the figures): esbuild bench/x12-profile.ts --bundle --platform=node --format=esm
 * --outfile=<dir>/bench/p.mjs, then node --cpu-prof <dir>/bench/p.mjs interpret.
 */
import { performance } from 'node:perf_hooks';
import { interpret271, readReply } from '../lib/eligibility/index.js';
import { readEnvelope, readLoops271, tokenize } from '../lib/x12/index.js';
import { corpus271 } from './corpus.js';
import { QUESTION } from './question.js';

const corpus = corpus271().files;
const texts = corpus.map((f) => f.text);
const bytes = corpus.reduce((n, f) => n + f.bytes, 0);

function per(label: string, fn: (t: string) => unknown): void {
  for (let i = 0; i < 200; i++) for (const t of texts) fn(t);
  const rounds = 1000;
  const start = performance.now();
  for (let i = 0; i < rounds; i++) for (const t of texts) fn(t);
  const ms = performance.now() - start;
  const us = (ms * 1000) / (rounds * texts.length);
  console.log(`${label.padEnd(28)} ${us.toFixed(2).padStart(8)} us/file  ${((bytes * rounds) / (ms * 1000)).toFixed(1).padStart(7)} MB/s`);
}

if (process.argv[2] !== 'interpret') {
  per('tokenize', tokenize);
  per('tokenize+envelope', (t) => {
    const r = tokenize(t);
    if (r.ok) readEnvelope(r.segments);
  });
  per('tokenize+envelope+loops', (t) => {
    const r = tokenize(t);
    if (r.ok) for (const tx of readEnvelope(r.segments).transactions) if (tx.setId === '271') readLoops271(tx.body);
  });
  per('readReply (rows, people)', readReply);
}
per('interpret271', (t) => interpret271(t, QUESTION));
