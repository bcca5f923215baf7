/**
 * Where interpret271's time goes, stage by stage, over the corpus 271s (fixtures when no corpus).
 * Run: npx tsx bench/x12-profile.ts [interpret|tokenize|read271]
 * For a CPU profile with line numbers, bundle it first (tsx wraps every closure in __name, which
 * distorts the figures): esbuild bench/x12-profile.ts --bundle --platform=node --format=esm
 * --external:node-x12 --outfile=<dir>/bench/p.mjs, then node --cpu-prof <dir>/bench/p.mjs interpret.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { interpret271, interpretRead } from '../lib/eligibility/interpret.js';
import { QUESTION } from './question.js';
import { tokenize } from '../test/support/x12-reference/tokenizer.js';
import { readEnvelope, transactionsOf } from '../test/support/x12-reference/envelope.js';
import { readLoops271 } from '../test/support/x12-reference/loops271.js';
import { referenceRead } from '../test/support/x12-reference/read.js';
import { read271 } from '../lib/eligibility/read271.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corpus = join(root, '../shared/corpus/x12');
const source = existsSync(join(corpus, 'manifest.json')) ? corpus : join(root, 'test/fixtures/x12');
const texts = readdirSync(source)
  .filter((f) => f.endsWith('.271'))
  .sort()
  .map((f) => readFileSync(join(source, f), 'utf8'));
const bytes = texts.reduce((n, t) => n + t.length, 0);

function per(label: string, fn: (t: string) => unknown): void {
  for (let i = 0; i < 200; i++) for (const t of texts) fn(t);
  const rounds = 1000;
  const start = performance.now();
  for (let i = 0; i < rounds; i++) for (const t of texts) fn(t);
  const ms = performance.now() - start;
  const us = (ms * 1000) / (rounds * texts.length);
  console.log(`${label.padEnd(28)} ${us.toFixed(2).padStart(8)} us/file  ${((bytes * rounds) / (ms * 1000)).toFixed(1).padStart(7)} MB/s`);
}

const only = process.argv[2];
if (only === 'interpret') {
  per('interpret271', (t) => interpret271(t, QUESTION));
} else if (only === undefined) {
  per('split baseline', (t) => t.split('~').map((s) => s.split('*')));
  per('tokenize', tokenize);
  per('tokenize+envelope', (t) => {
    const r = tokenize(t);
    if (r.ok) transactionsOf(readEnvelope(r.segments));
  });
  per('tokenize+envelope+loops', (t) => {
    const r = tokenize(t);
    if (r.ok) for (const tx of transactionsOf(readEnvelope(r.segments))) if (tx.setId === '271') readLoops271(tx);
  });
  per('read271 (fast path)', read271);
  per('layered reference + answer', (t) => interpretRead(referenceRead(t)));
  per('interpret271', (t) => interpret271(t, QUESTION));
}
if (only === 'tokenize') per('tokenize', tokenize);
if (only === 'read271') per('read271', read271);
