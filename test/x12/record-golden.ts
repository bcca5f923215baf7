/**
 * Records interpret271 golden outputs: `npx tsx test/x12/record-golden.ts`. Run only to pin the
 * behaviour of a known-good version; golden.test.ts then compares every later version to it.
 * Base fixture cases keep the whole output (readable diffs); their variants and every corpus case
 * keep a digest, so the file stays small and no corpus content is copied into the repo.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { interpret271 } from '../../lib/eligibility/interpret.js';
import { canonical, corpusCases, digest, fixtureCases, GOLDEN_QUESTION } from './golden-cases.js';

const golden = fileURLToPath(new URL('../fixtures/x12/golden/', import.meta.url));
const corpus = fileURLToPath(new URL('../../../shared/corpus/x12/', import.meta.url));
mkdirSync(golden, { recursive: true });

const fixtures: Record<string, unknown> = {};
for (const c of fixtureCases()) fixtures[c.name] = c.name.includes('#') ? digest(interpret271(c.text, GOLDEN_QUESTION)) : canonical(interpret271(c.text, GOLDEN_QUESTION));
writeFileSync(`${golden}fixtures.json`, `${JSON.stringify(fixtures, null, 1)}\n`);
console.log(`fixtures: ${Object.keys(fixtures).length} cases`);

if (existsSync(corpus)) {
  const digests: Record<string, string> = {};
  for (const c of corpusCases(corpus)) digests[c.name] = digest(interpret271(c.text, GOLDEN_QUESTION));
  writeFileSync(`${golden}corpus.json`, `${JSON.stringify(digests, null, 1)}\n`);
  console.log(`corpus: ${Object.keys(digests).length} cases`);
}
