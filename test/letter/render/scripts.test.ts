import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLetterMarkdown } from '../../../lib/letter/compose/body-markdown.js';
import { renderLetterPdfReport } from '../../../lib/letter/render/pdf.js';
import { LETTER_META as meta } from '../../fixtures/letter/metadata.js';

// Every script renders with an embedded font and comes back intact through pdftotext (poppler):
// right-to-left names in logical order, Devanagari and ligatures as written (docs/letter.md#fonts).
// Poppler rebuilds logical order from glyph positions, so a Hebrew or Arabic name that comes back in
// logical order was drawn in visual (right-to-left) order; one drawn in logical order comes back reversed.

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

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'letter-scripts-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** pdftotext's text, without the bidi embedding marks it puts around right-to-left runs. */
function extract(pdf: Uint8Array, name: string): string {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/[\u202A-\u202E\u2066-\u2069]/g, '');
}

describe('every script in the PDF', () => {
  it.each(Object.entries(NAMES))('%s name: embedded glyphs, extracted intact', async (script, name) => {
    const report = await renderLetterPdfReport({
      meta: { ...meta, patient_name: name },
      body: parseLetterMarkdown(`## Diagnosis\n\nThe patient ${name} has knee pain (ICD-10 M17.11).`),
      citations: [],
      generatedAt: GENERATED,
    });
    expect(report.replacedCharacters).toBe(0);
    const out = extract(report.pdf, script);
    expect(out).toContain(`Patient: ${name}`);
    expect(out).toContain(`Name: ${name}`);
    expect(out).toContain(name);
    expect(out).not.toContain('\uFFFD');
  });

  it('embeds only DejaVu for a Latin letter, and each script face only when used', async () => {
    const fontsOf = (pdf: Uint8Array, name: string) => {
      const file = join(dir, `${name}.pdf`);
      writeFileSync(file, pdf);
      return execFileSync('pdffonts', [file], { encoding: 'utf8' });
    };
    const latin = await renderLetterPdfReport({ meta, body: parseLetterMarkdown('Plain text.'), citations: [], generatedAt: GENERATED });
    expect(fontsOf(latin.pdf, 'latin')).not.toMatch(/Noto/);
    const arabic = await renderLetterPdfReport({
      meta: { ...meta, patient_name: 'محمد' },
      body: parseLetterMarkdown('Plain text.'),
      citations: [],
      generatedAt: GENERATED,
    });
    const fonts = fontsOf(arabic.pdf, 'arabic-only');
    expect(fonts).toMatch(/NotoNaskhArabic/);
    expect(fonts).not.toMatch(/NotoSansJP|NotoSansKR|NotoSansHans|NotoEmoji/);
  });
});
