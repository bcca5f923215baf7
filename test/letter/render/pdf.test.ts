import { describe, it, expect, beforeAll } from '@jest/globals';
import { parseLetterMarkdown } from '../../../lib/letter/compose/body-markdown.js';
import { renderLetterPdfReport as renderReport } from '../../../lib/letter/render/pdf.js';
import type { LetterMetadata } from '../../../lib/letter/index.js';
import { LETTER_META as meta } from '../../fixtures/letter/metadata.js';
import { letterBody } from '../../fixtures/letter/bodies.js';
import { pdfFonts, pdfInfo, pdfText, pdfTextRuns, qpdfCheck } from '../../support/pdf-tools.js';

// Real PDFs checked by real tools (test/support/pdf-tools.ts): pdf.js for text, pages and title, the font
// dictionaries for fonts, and qpdf (WebAssembly) for structure.

const renderLetterPdfReport = (m: LetterMetadata, body: string, generatedAt: Date) =>
  renderReport({ meta: m, body: parseLetterMarkdown(body), citations: [], generatedAt });
const renderLetterPdf = async (m: LetterMetadata, body: string, generatedAt: Date) => (await renderLetterPdfReport(m, body, generatedAt)).pdf;

const GENERATED = new Date('2026-11-22T12:46:26.123Z');
const BODY = [
  '## Diagnosis',
  '',
  'Chemotherapy dose **≥ 5 mg/m²** was *not tolerated*; see ***critical findings***.',
  '',
  '- first bullet',
  '  - nested bullet',
  '1. numbered one',
  '2. numbered two',
  '',
  '### Plan',
  '',
  'Proceed with surgery.',
].join('\n');

/** pdffonts' line for a font: name, type, encoding, embedded. */
const fontLines = async (pdf: Uint8Array) =>
  (await pdfFonts(pdf)).map((font) => `${font.name} ${font.type} ${font.encoding} ${font.embedded ? 'yes' : 'no'}`).join('\n');

describe('renderLetterPdf', () => {
  let file: Uint8Array;
  beforeAll(async () => {
    file = await renderLetterPdf(meta, BODY, GENERATED);
  });

  it('writes a structurally valid US Letter PDF', async () => {
    const check = await qpdfCheck(file);
    expect(check.status).toBe(0);
    expect(check.stdout).toMatch(/No syntax or stream encoding errors/);
    expect(await pdfInfo(file)).toEqual({ pages: 1, width: 612, height: 792, title: 'Letter of Medical Necessity' });
  });

  it('keeps Unicode names and symbols intact', async () => {
    const out = await pdfText(file);
    expect(out).toContain("José Núñez-O'Brien");
    expect(out).toContain('≥ 5 mg/m²');
  });

  it('has the header, patient section, body and signature in order', async () => {
    const out = await pdfText(file);
    const order = [
      'Riverside Orthopedics',
      'Phone: +1 555 010 2000',
      'E-mail: dr.lee@riverside.example',
      'Date: November 22, 2026',
      'Letter of Medical Necessity',
      'Patient Information',
      "Name: José Núñez-O'Brien",
      'Age: 47',
      'Patient identifier: PAT-0001',
      'Diagnosis',
      '• first bullet',
      '◦ nested bullet',
      '1. numbered one',
      '2. numbered two',
      'Plan',
      'Proceed with surgery.',
      'Sincerely,',
      '/s/ Dana Lee',
      'Dana Lee, MD',
      'Generated 2026-11-22T12:46:26Z',
      'Page 1 of 1',
    ];
    const normalized = out.replace(/[ \t]+/g, ' ');
    const positions = order.map((part) => normalized.indexOf(part));
    expect(positions.filter((p) => p < 0)).toEqual([]);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(out).not.toMatch(/\*|##/); // markdown syntax is rendered, not printed
  });

  it('embeds the DejaVu fonts the text uses, bold and italic included', async () => {
    const fonts = await fontLines(file);
    for (const name of ['DejaVuSans-', 'DejaVuSans-Bold-', 'DejaVuSans-Oblique-', 'DejaVuSans-BoldOblique-']) {
      expect(fonts).toMatch(new RegExp(`${name}\\d+\\s+CID TrueType\\s+Identity-H\\s+yes`));
    }
  });

  it('uses bold italic only when the body asks for it', async () => {
    const fonts = await fontLines(await renderLetterPdf(meta, 'Plain paragraph only. '.repeat(20), GENERATED));
    expect(fonts).not.toMatch(/DejaVuSans-BoldOblique/);
    expect(fonts).toMatch(/DejaVuSans-Oblique/); // the signature line
  });

  it('flows a long body over three pages with a footer on every page', async () => {
    let body = '';
    let pages = 0;
    for (let paragraphs = 8; pages < 3; paragraphs += 1) {
      body = letterBody(paragraphs);
      pages = (await renderLetterPdfReport(meta, body, GENERATED)).pages;
    }
    expect(pages).toBe(3);
    const threePages = await renderLetterPdf(meta, body, GENERATED);
    expect((await qpdfCheck(threePages)).status).toBe(0);
    expect((await pdfInfo(threePages)).pages).toBe(3);
    for (let page = 1; page <= 3; page += 1) {
      const pageText = await pdfText(threePages, page);
      expect(pageText).toContain(`Page ${page} of 3`);
      expect(pageText).toContain('Generated 2026-11-22T12:46:26Z');
    }
    expect(await pdfText(threePages, 3)).toContain('Dana Lee, MD');
  });

  it('keeps every word inside the margins, even a word longer than a line', async () => {
    const longWord = 'Pneumonoultramicroscopicsilicovolcanoconiosis'.repeat(4);
    const wide = await renderLetterPdf({ ...meta, facility_name: `Clinic${'W'.repeat(80)}` }, `Word: ${longWord} end.\n\n- ${longWord}`, GENERATED);
    // Every drawn run (a word, or words drawn together), with its box.
    const runs = (await pdfTextRuns(wide)).flat();
    expect(runs.length).toBeGreaterThan(20);
    for (const { xMin, xMax } of runs) {
      expect(xMin).toBeGreaterThanOrEqual(72 - 0.5);
      expect(xMax).toBeLessThanOrEqual(612 - 72 + 0.5);
    }
    const joined = runs.map((run) => run.text.replace(/\s+/g, '')).join('');
    expect(joined).toContain(`${longWord}end.`); // broken across lines, no character lost
  });

  it('draws characters no bundled font has as U+FFFD and counts them, never dropping or crashing', async () => {
    const report = await renderLetterPdfReport({ ...meta, patient_name: 'Ugaritic \u{10380}\u{10381}' }, `${BODY}\n\nLinear B: \u{10000}.`, GENERATED);
    expect(report.replacedCharacters).toBe(2 + 2 + 1); // the name twice (Re: block and patient information)
    const out = await pdfText(report.pdf);
    expect(out).toContain('Name: Ugaritic \uFFFD\uFFFD');
    expect(out).toContain('Linear B: \uFFFD.');
  });

  it('draws metadata literally, never as markdown', async () => {
    const out = await pdfText(await renderLetterPdf({ ...meta, patient_name: '**Bob** _x_ [y](z)' }, BODY, GENERATED));
    expect(out).toContain('Name: **Bob** _x_ [y](z)');
  });
});
