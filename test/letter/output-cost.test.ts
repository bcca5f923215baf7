import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseLetterMarkdown } from '../../lib/letter/compose/body-markdown.js';
import { MAX_CITATIONS, readCitedText } from '../../lib/letter/compose/citations.js';
import { verifyCodes } from '../../lib/letter/compose/codes.js';
import { searchNotes, type NotesSearch } from '../../lib/letter/intake/notes-search.js';
import { generateLetter } from '../../lib/letter/pipeline.js';
import type { Message } from '../../lib/upstream/anthropic.js';
import { procedureNotesPdf, toBase64 } from '../fixtures/letter/pdfs.js';
import { manyCitations, NUMBERED_LINES } from '../fixtures/letter/model-answers.js';
import { type FakeAnthropic, letterAiAt, startFakeAnthropic } from '../support/anthropic-fake.js';
import { lakesideLetterRequest } from '../fixtures/letter/metadata.js';

/**
 * Model output costs in proportion to what is kept (docs/letter.md#citations, docs/letter.md#codes):
 * 20,000 citations, each a sentence with a number that is really in the notes. The work is counted,
 * not timed: a search over the notes that counts its lookups stands in for the pipeline's own.
 */

const LINES = NUMBERED_LINES;
const CITATIONS = 20_000;
const answer = () => manyCitations(CITATIONS);

/** The search the pipeline builds, with its lookups counted. */
function countedSearch(pages: string[]) {
  const real = searchNotes(pages);
  const counts = { passages: 0, codes: 0 };
  const search: NotesSearch = {
    passageOn: (page, passage) => {
      counts.passages += 1;
      return real.passageOn(page, passage);
    },
    codePages: (code) => {
      counts.codes += 1;
      return real.codePages(code);
    },
  };
  return { search, counts };
}

describe('model output costs in proportion to what is kept', () => {
  it(`looks up at most ${MAX_CITATIONS} distinct passages of 20,000 citations, after one pass`, () => {
    const pages = [LINES.join('\n')];
    const { search, counts } = countedSearch(pages);
    const message = { content: answer() } as unknown as Message;
    const cited = readCitedText(message, { pages, pageCount: 1, search });
    expect(counts.passages).toBe(MAX_CITATIONS);
    expect(cited.citations).toHaveLength(MAX_CITATIONS);
    expect(cited.overLimit).toBeGreaterThan(0);
  });

  it('looks each distinct code up once, not every code-shaped number the answer repeats', () => {
    const pages = [LINES.join('\n')];
    const { search, counts } = countedSearch(pages);
    const message = { content: answer() } as unknown as Message;
    const cited = readCitedText(message, { pages, pageCount: 1, search });
    const { codes, removed } = verifyCodes(parseLetterMarkdown(cited.text), { pages, search });
    expect(codes.cpt.map((entry) => entry.code)).toEqual(LINES.map((_, i) => String(31000 + i * 7)));
    expect(removed).toEqual([]);
    // 40 codes kept, 40 lookups: not one per sentence (20,000).
    expect(counts.codes).toBe(codes.cpt.length + codes.icd10.length);
  });
});

describe('20,000 citations through the letter route', () => {
  let fake: FakeAnthropic;
  let notes: string;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
    notes = toBase64(await procedureNotesPdf(LINES));
  });
  afterAll(() => fake.close());

  it(`answers a 200 with at most ${MAX_CITATIONS} citations and every number verified`, async () => {
    fake.answer(answer());
    const { result } = await generateLetter(lakesideLetterRequest(notes), letterAiAt(fake.url));
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
    expect(result.value.citations.length).toBeGreaterThan(0);
    expect(result.value.citations.length).toBeLessThanOrEqual(MAX_CITATIONS);
    expect(result.value.codes.cpt).toHaveLength(LINES.length);
    expect(result.value.notices.map((notice) => notice.code)).toEqual(['CITATIONS_LIMITED']);
  });
});
