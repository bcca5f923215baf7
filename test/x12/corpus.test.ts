/**
 * Conformance over the shared X12 corpus (../shared/corpus/x12 beside the repo). A fresh clone has
 * no corpus, so the suite is skipped then. AAA expectations come from an independent naive scan.
 */
import { describe, it, expect } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { interpret271 } from '../../lib/eligibility/interpret.js';
import { answerProblem } from '../support/answer-shape.js';
import { readEnvelope } from '../../lib/x12/envelope.js';
import { tokenize } from '../../lib/x12/tokenizer.js';

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

/** Independent of the tokenizer: split on the terminator, look for segments starting "AAA<sep>". */
function scanAaa(text: string, element: string, terminator: string): { code: string; action: string }[] {
  return text
    .split(terminator)
    .map((s) => s.trim())
    .filter((s) => s.startsWith(`AAA${element}`))
    .map((s) => {
      const parts = s.split(element);
      return { code: parts[3] ?? '', action: parts[4] ?? '' };
    });
}

(present ? describe : describe.skip)('X12 corpus conformance', () => {
  it('has files', () => expect(entries.length).toBeGreaterThan(0));

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
    it(`${entry.file}: every AAA surfaces as a rejection`, () => {
      const text = readFileSync(join(corpusDir, entry.file), 'utf8');
      const out = interpret271(text);
      const expected = scanAaa(text, entry.delimiters.element, entry.delimiters.segment);
      expect(out.aaaCodes).toEqual(expected.map((a) => a.code));
      if (expected.length === 0) {
        // No AAA: either a summary, or unreadable for lack of a 2000C.
        if (!out.result.ok) expect(out.result.error.code).toBe('UPSTREAM_ERROR');
        return;
      }
      expect(out.result.ok).toBe(false);
      if (out.result.ok) return;
      const rejections = out.result.error.rejections ?? [];
      expect(rejections.map((r) => r.code)).toEqual(expected.map((a) => a.code));
      rejections.forEach((r, i) => {
        expect(r.description).not.toBe('');
        expect(r.description).not.toBe('Unknown reject reason code');
        expect(r.followUpAction.startsWith(`${expected[i]!.action}: `)).toBe(true);
        expect(r.loop).toMatch(/^2(000[A-D]|100[A-D]|110[CD])$/);
      });
    });
  }
});
