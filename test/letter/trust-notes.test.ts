import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fixedClock } from '../../lib/config/index.js';
import { generateLetter, type LetterAi } from '../../lib/letter/pipeline.js';
import { cleanModelText, defuseLinks } from '../../lib/letter/compose/plain-text.js';
import type { LetterRequest } from '../../lib/validation/schemas.js';
import { PROCEDURE_NOTES_LINES, procedureNotesPdf, scannedNotesPdf, toBase64 } from '../fixtures/letter/pdfs.js';
import { type FakeAnthropic, letterAiAt, pageCitation, startFakeAnthropic } from '../support/anthropic-fake.js';
import { lakesideLetterRequest } from '../fixtures/letter/metadata.js';

/**
 * Letters trust only the notes (docs/letter.md#citations): a misbehaving model (the wire-format
 * fake) cites pages the notes do not have, words they do not hold, 20,000 passages, links in every
 * form and terminal escapes; none of it reaches the letter as the model meant it.
 */

let fake: FakeAnthropic;
let notes: string;
let scan: string;
beforeAll(async () => {
  fake = await startFakeAnthropic();
  notes = toBase64(await procedureNotesPdf());
  scan = toBase64(await scannedNotesPdf());
});
afterAll(() => fake.close());

const request = (overrides: Partial<LetterRequest> = {}): LetterRequest => lakesideLetterRequest(notes, overrides);

const ai = (): LetterAi => letterAiAt(fake.url);
const filler =
  'The documented findings show a condition that limits daily function and has not responded to appropriate conservative care over many months. ' +
  'The requested service is the accepted treatment for this presentation and is expected to relieve symptoms and restore function.';
const DIAGNOSIS = PROCEDURE_NOTES_LINES[1]!;

async function letter(req: LetterRequest = request()) {
  const { result } = await generateLetter(req, ai(), fixedClock('2026-02-01T09:00:00Z'));
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

describe('letters trust only the notes', () => {
  it('drops a citation of a page the notes lack or of words they do not hold, and a code only such a citation "verified"', async () => {
    fake.answer([
      { type: 'text', text: '## Diagnosis\n\nPrimary osteoarthritis of the right knee', citations: [pageCitation(DIAGNOSIS, 1)] },
      { type: 'text', text: ' (ICD-10 M17.11). Chronic pain is documented', citations: [pageCitation('Chronic pain, ICD-10 G89.29, documented.', 999)] },
      { type: 'text', text: ' (ICD-10 G89.29)', citations: [pageCitation('Chronic pain G89.29', 1)] },
      { type: 'text', text: `.\n\n${filler}` },
    ]);
    const body = await letter();
    expect(body.citations).toEqual([{ page: 1, citedText: DIAGNOSIS }]);
    expect(body.codes.icd10.map((c) => c.code)).toEqual(['M17.11']);
    expect(body.letter).not.toMatch(/G89\.29|p\. 999/);
    expect(body.letter).toContain('Primary osteoarthritis of the right knee (ICD-10 M17.11). [p. 1] Chronic pain is documented.');
    expect(body.notices).toEqual([
      { code: 'CITATION_NOT_FOUND', message: '2 citations were dropped: the page or the cited text is not in the procedure notes' },
      { code: 'UNVERIFIED_CODE_REMOVED', message: 'Code G89.29 does not appear in the procedure notes, so it was removed from the letter' },
    ]);
  });

  it('finds a cited passage whatever its whitespace and case', async () => {
    const shouted = DIAGNOSIS.toUpperCase().replace(/ /g, '  \n ');
    fake.answer([
      { type: 'text', text: `## Diagnosis\n\nOsteoarthritis of the right knee`, citations: [pageCitation(shouted, 1)] },
      { type: 'text', text: `.\n\n${filler}` },
    ]);
    const body = await letter();
    expect(body.citations).toEqual([{ page: 1, citedText: shouted.trim() }]);
    expect(body.notices).toEqual([]);
  });

  it('keeps at most 100 cited passages of 20,000, and says how many more were dropped', async () => {
    const all = PROCEDURE_NOTES_LINES.join(' ');
    const blocks = Array.from({ length: 20_000 }, (_, i) => {
      const line = PROCEDURE_NOTES_LINES[i % PROCEDURE_NOTES_LINES.length]!;
      const start = Math.floor(i / PROCEDURE_NOTES_LINES.length) % (line.length - 12);
      return { type: 'text', text: i === 0 ? `## Findings\n\n${filler} ` : 'x ', citations: [pageCitation(line.slice(start, start + 12), 1)] };
    });
    fake.answer([...blocks, { type: 'text', text: `\n\n${filler}` }]);
    const body = await letter();
    expect(all.length).toBeGreaterThan(100);
    expect(body.citations).toHaveLength(100);
    expect(body.notices).toEqual([
      expect.objectContaining({
        code: 'CITATIONS_LIMITED',
        message: expect.stringMatching(/^Only the first 100 cited passages are kept; \d+ more were dropped$/),
      }),
    ]);
    expect(JSON.stringify(body).length).toBeLessThan(200_000);
  });

  it('turns links in any form into plain text without a scheme, and removes control characters and terminal escapes', async () => {
    fake.answer([
      {
        type: 'text',
        text:
          '## Request\n\nSee https://evil.example/x?a=1 and www.evil.example/y and <http://evil2.example/z> and [click](https://e3.example) or mailto:a@evil.example. ' +
          '\u001b[31mRed\u001b[0m, \u001b]8;;https://osc.example\u0007osc\u001b]8;;\u0007, bell\u0007, back\u0008space, \u202Eoverride\u202C. ' +
          filler,
      },
    ]);
    const body = await letter();
    expect(body.letter).toContain(
      'See evil.example/x?a=1 and evil.example/y and evil2.example/z and click or a@evil.example. Red, osc, bell, backspace, override.',
    );
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test asserts that no control characters (ESC, BEL, backspace) survive into the letter
    expect(body.letter).not.toMatch(/https?:|www\.|mailto:|\u001b|\[31m|[\u0000-\u0008\u000B-\u001F\u007F\u202A-\u202E]/);
  });

  it('a scan: citations of pages it has are kept (their words cannot be checked), others dropped, and the notice says so', async () => {
    fake.answer([
      { type: 'text', text: '## Diagnosis\n\nPrimary osteoarthritis of the right knee', citations: [pageCitation('Primary osteoarthritis, right knee', 1)] },
      { type: 'text', text: ' and more', citations: [pageCitation('Something on page two', 2)] },
      { type: 'text', text: `.\n\n${filler}` },
    ]);
    const body = await letter(request({ file_content: scan }));
    expect(body.citations).toEqual([{ page: 1, citedText: 'Primary osteoarthritis, right knee' }]);
    expect(body.notices.map((n) => n.code)).toEqual(['CITATION_NOT_FOUND', 'NOTES_NOT_MACHINE_READABLE']);
    expect(body.notices[1]!.message).toMatch(/cited passages/);
  });
});

describe('plain text from the model', () => {
  it.each([
    ['https://a.example/p', 'a.example/p'],
    ['HTTPS://A.EXAMPLE', 'A.EXAMPLE'],
    ['ftp://files.example', 'files.example'],
    ['www.a.example and WWW2.b.example', 'a.example and b.example'],
    ['tel:+15550100', '+15550100'],
    ['the www.-less word awwww.', 'the www.-less word awwww.'],
  ])('defuseLinks(%j) → %j', (input, output) => expect(defuseLinks(input)).toBe(output));

  it('cleanModelText keeps tabs and line breaks, drops escapes and other controls', () =>
    expect(cleanModelText('a\tb\r\nc\u001b[1;31md\u001b[0m\u0000e\u0085f\u2066g\u2069\u009b2Jh')).toBe('a\tb\ncdefgh'));
});
