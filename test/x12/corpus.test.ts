/**
 * Conformance over the shared X12 corpus (../shared/corpus/x12 beside the repo, or $X12_CORPUS). A fresh
 * clone has no corpus, so the suite is skipped then. The AAAs each 271 must surface are golden data:
 * test/fixtures/x12/golden/corpus-aaa.json, recorded once from the reader and checked by eye against the
 * files' AAA segments (docs/eligibility.md#payer-rejections-aaa); `npx tsx test/x12/record-golden.ts`
 * records it again with the other golden answers, only to pin a known-good reader.
 */
import { describe, it, expect } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { interpret271 } from '../../lib/eligibility/interpret.js';
import { answerProblem } from '../support/answer-shape.js';
import { readEnvelope } from '../../lib/x12/envelope.js';
import { tokenize } from '../../lib/x12/tokenizer.js';
import { aaaAnswerOf, GOLDEN_DIR, type AaaAnswer } from './golden-cases.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const corpusDir = process.env.X12_CORPUS ?? join(repoRoot, '../shared/corpus/x12');
const manifestPath = join(corpusDir, 'manifest.json');
const present = existsSync(manifestPath);

interface Entry {
  file: string;
  transaction: string;
  segments: number;
  delimiters: { element: string; segment: string };
}
const entries: Entry[] = present ? JSON.parse(readFileSync(manifestPath, 'utf8')) : [];

const recordedAaa = JSON.parse(readFileSync(join(GOLDEN_DIR, 'corpus-aaa.json'), 'utf8')) as Record<string, AaaAnswer>;

(present ? describe : describe.skip)('X12 corpus conformance', () => {
  it('has files', () => expect(entries.length).toBeGreaterThan(0));
  it('has recorded AAAs for exactly its 271 files, some of them with rejections', () => {
    expect(Object.keys(recordedAaa).sort()).toEqual(
      entries
        .filter((e) => e.transaction === '271')
        .map((e) => e.file)
        .sort(),
    );
    expect(Object.values(recordedAaa).filter((a) => a.rejections.length > 0).length).toBeGreaterThan(10);
  });

  for (const entry of entries) {
    it(`${entry.file}: tokenizes and groups without throwing`, () => {
      const text = readFileSync(join(corpusDir, entry.file), 'utf8');
      const tokens = tokenize(text);
      expect(tokens.ok).toBe(true);
      if (!tokens.ok) return;
      expect(tokens.segments).toHaveLength(entry.segments);
      expect(tokens.segments[0]!.delimiters.element).toBe(entry.delimiters.element);
      expect(tokens.segments[0]!.delimiters.segment).toBe(entry.delimiters.segment);
      const sets = readEnvelope(tokens.segments).transactions;
      expect(sets.length).toBeGreaterThan(0);
      expect(sets[0]!.setId).toBe(entry.transaction);
    });

    if (entry.transaction !== '271') continue;
    it(`${entry.file}: the whole answer stays inside docs/eligibility.md`, () => {
      const text = readFileSync(join(corpusDir, entry.file), 'utf8');
      const question = { dateOfCoverage: '20250315', serviceTypeCodes: ['30', '33', 'AL'], procedureCodes: ['99213'] };
      const out = interpret271(text, question);
      if (out.result.ok) expect(answerProblem(out.result.value, question)).toBeUndefined();
      else expect(['PAYER_REJECTED', 'PAYER_UNAVAILABLE', 'UPSTREAM_ERROR']).toContain(out.result.error.code);
    });
    it(`${entry.file}: every AAA surfaces as the recorded rejection`, () => {
      const out = interpret271(readFileSync(join(corpusDir, entry.file), 'utf8'));
      const recorded = recordedAaa[entry.file];
      expect(aaaAnswerOf(out)).toEqual(recorded);
      expect(out.aaaCodes).toEqual(recorded!.rejections.map((r) => r.code));
      if (recorded!.rejections.length === 0) {
        // No AAA: either a summary, or unreadable for lack of a 2000C.
        expect(['ok', 'UPSTREAM_ERROR']).toContain(recorded!.result);
        return;
      }
      expect(out.result.ok).toBe(false);
      if (out.result.ok) return;
      for (const r of out.result.error.rejections ?? []) {
        expect(r.description).not.toBe('');
        expect(r.description).not.toBe('Unknown reject reason code');
        expect(r.loop).toMatch(/^2(000[A-D]|100[A-D]|110[CD])$/);
      }
    });
  }
});
