import { beforeAll, describe, expect, it } from '@jest/globals';
import { parseLetterMarkdown } from '../../../lib/letter/compose/body-markdown.js';
import { renderLetterPdfReport } from '../../../lib/letter/render/pdf.js';
import { LETTER_META } from '../../fixtures/letter/metadata.js';
import { pdfText } from '../../support/pdf-tools.js';

/**
 * A right-to-left name inside the English letter is isolated (docs/letter.md#fonts): the sentence
 * around it keeps its order in the PDF, as pdf.js reads it back: lines laid out by where each run is
 * drawn, the name in logical order inside (test/support/pdf-tools.ts). Before, a line starting with an
 * Arabic name became a right-to-left paragraph (the English words came out backwards), and a
 * number after the name was pulled in front of it.
 */

const NAME = 'محمد علي';
let text: string;

beforeAll(async () => {
  const body = parseLetterMarkdown(
    `${NAME} is under our care for knee pain and walks with a cane.\n\n` +
      `Seen today: ${NAME} 63, with night pain.\n\n` +
      'The requested service is expected to restore function.',
  );
  const { pdf } = await renderLetterPdfReport({
    meta: { ...LETTER_META, patient_name: NAME, patient_age: '63' },
    body,
    citations: [],
    generatedAt: new Date('2026-02-01T09:00:00Z'),
  });
  text = await pdfText(pdf);
});

const lineWith = (needle: string) => text.split('\n').find((line) => line.includes(needle)) ?? '';
const arabicAt = (line: string) => line.search(/[\u0600-\u06FF]/);

describe('right-to-left values in left-to-right sentences', () => {
  it('a sentence that starts with the name keeps its English order', () => {
    const line = lineWith('under our care');
    expect(line).toMatch(/is under our care for knee pain and walks with a cane\./);
    expect(arabicAt(line)).toBeGreaterThanOrEqual(0);
    expect(arabicAt(line)).toBeLessThan(line.indexOf('is under'));
  });

  it('a number after the name stays after it', () => {
    const line = lineWith('Seen today:');
    expect(line).toMatch(/^\s*Seen today:/);
    expect(line.indexOf('63, with night pain.')).toBeGreaterThan(arabicAt(line));
    expect(arabicAt(line)).toBeGreaterThan(line.indexOf('Seen today:'));
  });

  it('the patient block reads label, then name', () => {
    const line = lineWith('Name:');
    expect(arabicAt(line)).toBeGreaterThan(line.indexOf('Name:'));
  });
});
