/**
 * The reader must give exactly the answers record-golden.ts recorded from the reader it replaced
 * (docs/eligibility.md#how-the-271-is-read): byte for byte as JSON, key order included, for the
 * project's fixtures and their damage, every 271 the tests send, the sandbox patients' replies, and
 * the shared corpus when it is beside the repo (or at $X12_CORPUS).
 */
import { describe, it, expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { interpret271 } from '../../lib/eligibility/interpret.js';
import {
  corpusCases,
  corpusDamage,
  corpusPresent,
  DEFAULT_QUESTION,
  digest,
  exactJson,
  fixtureCases,
  fixtureDamage,
  GOLDEN_DIR,
  GOLDEN_QUESTION,
  recordedReplies,
  type Case,
} from './golden-cases.js';

const golden = (file: string) => JSON.parse(readFileSync(`${GOLDEN_DIR}${file}`, 'utf8')) as Record<string, unknown>;

const answers = (text: string) => ({ golden: interpret271(text, GOLDEN_QUESTION), default: interpret271(text, DEFAULT_QUESTION) });

/** Names of the cases whose answer differs from the recorded one (full answers, or digests of them). */
function mismatches(cases: readonly { name: string; answer: () => unknown }[], expected: Record<string, unknown>): string[] {
  const bad: string[] = [];
  for (const c of cases) {
    const want = expected[c.name];
    const got = c.answer();
    if (typeof want === 'string' ? digest(got) !== want : exactJson(got) !== exactJson(want)) bad.push(c.name);
  }
  return bad;
}

const both = (cases: readonly Case[]) => cases.map((c) => ({ name: c.name, answer: () => answers(c.text) }));

describe('interpret271 golden answers', () => {
  it('project fixtures and their damaged variants', () => {
    const expected = golden('fixtures.json');
    const cases = fixtureCases();
    expect(cases.length).toBe(Object.keys(expected).length);
    expect(mismatches(both(cases), expected)).toEqual([]);
  });

  it('seeded random damage of the project fixtures', () => {
    const expected = golden('damage.json');
    const cases = fixtureDamage();
    expect(cases.length).toBe(Object.keys(expected).length);
    expect(mismatches(both(cases), expected)).toEqual([]);
  });

  it('every 271 the tests send and every sandbox patient reply, with the question each was asked', () => {
    const expected = golden('replies-golden.json');
    const replies = recordedReplies();
    expect(replies.length).toBe(Object.keys(expected).length);
    expect(replies.filter((r) => r.name.startsWith('sandbox:')).length).toBeGreaterThan(10);
    expect(
      mismatches(
        replies.map((r) => ({ name: r.name, answer: () => interpret271(r.x12, r.question) })),
        expected,
      ),
    ).toEqual([]);
  });

  it('the recorded answers are not vacuous', () => {
    const fixtures = golden('fixtures.json') as Record<string, { golden: { result: { ok: boolean; value?: { benefits: unknown[] } } } }>;
    expect(fixtures.fixture!.golden.result.ok).toBe(true);
    expect(fixtures.fixture!.golden.result.value!.benefits.length).toBeGreaterThan(0);
    expect(fixtures.aaa!.golden.result.ok).toBe(false);
    const replies = golden('replies-golden.json') as Record<string, { result: { ok: boolean } }>;
    expect(replies['sandbox:PPO100001']!.result.ok).toBe(true);
  });

  (corpusPresent() ? it : it.skip)('shared corpus files, their damaged variants and seeded damage', () => {
    const expected = golden('corpus.json');
    const cases = [...corpusCases(), ...corpusDamage()];
    expect(cases.length).toBe(Object.keys(expected).length);
    expect(mismatches(both(cases), expected)).toEqual([]);
  });
});
