/**
 * interpret271 must give exactly the outputs recorded by record-golden.ts (the revision-2 answer,
 * asked GOLDEN_QUESTION): the project's fixtures always, the shared corpus when it is beside the repo.
 */
import { describe, it, expect } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { interpret271 } from '../../lib/eligibility/interpret.js';
import { canonical, corpusCases, digest, fixtureCases, GOLDEN_QUESTION } from './golden-cases.js';

const golden = fileURLToPath(new URL('../fixtures/x12/golden/', import.meta.url));
const corpus = fileURLToPath(new URL('../../../shared/corpus/x12/', import.meta.url));
const present = existsSync(`${corpus}manifest.json`);

function mismatches(cases: { name: string; text: string }[], expected: Record<string, unknown>): string[] {
  const bad: string[] = [];
  for (const c of cases) {
    const want = expected[c.name];
    const out = interpret271(c.text, GOLDEN_QUESTION);
    const got = typeof want === 'string' ? digest(out) : canonical(out);
    if (JSON.stringify(got) !== JSON.stringify(want)) bad.push(c.name);
  }
  return bad;
}

describe('interpret271 golden outputs', () => {
  it('project fixtures and their damaged variants', () => {
    const expected = JSON.parse(readFileSync(`${golden}fixtures.json`, 'utf8')) as Record<string, unknown>;
    const cases = fixtureCases();
    expect(cases.length).toBe(Object.keys(expected).length);
    expect(mismatches(cases, expected)).toEqual([]);
  });
  it('the base fixture is a success with figures (the golden file is not vacuous)', () => {
    const expected = JSON.parse(readFileSync(`${golden}fixtures.json`, 'utf8')) as Record<string, { result: { ok: boolean } }>;
    expect(expected.fixture!.result.ok).toBe(true);
    expect(expected.aaa!.result.ok).toBe(false);
  });
  (present ? it : it.skip)('shared corpus files and their damaged variants', () => {
    const expected = JSON.parse(readFileSync(`${golden}corpus.json`, 'utf8')) as Record<string, string>;
    const cases = corpusCases(corpus);
    expect(cases.length).toBe(Object.keys(expected).length);
    expect(mismatches(cases, expected)).toEqual([]);
  });
});
