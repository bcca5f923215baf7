import { describe, it, expect } from '@jest/globals';
import { parseLetterMarkdown } from '../../../lib/letter/compose/body-markdown.js';
import { renderLetterPdfReport } from '../../../lib/letter/render/pdf.js';
import { LETTER_META as meta } from '../../fixtures/letter/metadata.js';
import { pdfFonts, pdfText } from '../../support/pdf-tools.js';

// Every script renders with an embedded font and comes back intact through pdf.js (test/support/pdf-tools.ts):
// right-to-left names in logical order, Devanagari and ligatures as written (docs/letter.md#fonts).
// pdf.js, like poppler, rebuilds logical order from glyph positions, so a Hebrew or Arabic name that comes back
// in logical order was drawn in visual (right-to-left) order; one drawn in logical order comes back reversed.

const NAMES: Record<string, string> = {
  Japanese: '山田 太郎',
  Chinese: '王伟',
  Korean: '김민수',
  Devanagari: 'राम शर्मा',
  Greek: 'Γιώργος Παπαδόπουλος',
  Cyrillic: 'Иван Петров',
  Hebrew: 'דוד כהן',
  Arabic: 'محمد عبد الله',
  'Arabic with lam-alef': 'صلاح علاء',
  'Mathematical bold': '𝐉𝐨𝐡𝐧',
  Emoji: '🙂🏥',
};
const GENERATED = new Date('2026-11-22T12:00:00Z');

describe('every script in the PDF', () => {
  it.each(Object.entries(NAMES))('%s name: embedded glyphs, extracted intact', async (_script, name) => {
    const report = await renderLetterPdfReport({
      meta: { ...meta, patient_name: name },
      body: parseLetterMarkdown(`## Diagnosis\n\nThe patient ${name} has knee pain (ICD-10 M17.11).`),
      citations: [],
      generatedAt: GENERATED,
    });
    expect(report.replacedCharacters).toBe(0);
    const out = await pdfText(report.pdf);
    expect(out).toContain(`Patient: ${name}`);
    expect(out).toContain(`Name: ${name}`);
    expect(out).toContain(name);
    expect(out).not.toContain('\uFFFD');
  });

  it('embeds only DejaVu for a Latin letter, and each script face only when used', async () => {
    const fontsOf = async (pdf: Uint8Array) => (await pdfFonts(pdf)).map((font) => font.name).join('\n');
    const latin = await renderLetterPdfReport({ meta, body: parseLetterMarkdown('Plain text.'), citations: [], generatedAt: GENERATED });
    const latinFonts = await fontsOf(latin.pdf);
    expect(latinFonts).toMatch(/DejaVuSans/);
    expect(latinFonts).not.toMatch(/Noto/);
    const arabic = await renderLetterPdfReport({
      meta: { ...meta, patient_name: 'محمد' },
      body: parseLetterMarkdown('Plain text.'),
      citations: [],
      generatedAt: GENERATED,
    });
    const fonts = await fontsOf(arabic.pdf);
    expect(fonts).toMatch(/NotoNaskhArabic/);
    expect(fonts).not.toMatch(/NotoSansJP|NotoSansKR|NotoSansHans|NotoEmoji/);
  });
});
