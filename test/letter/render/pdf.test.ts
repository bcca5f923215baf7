import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLetterMarkdown } from '../../../lib/letter/compose/body-markdown.js';
import { renderLetterPdfReport as renderReport } from '../../../lib/letter/render/pdf.js';
import type { LetterMetadata } from '../../../lib/letter/index.js';
import { LETTER_META as meta } from '../../fixtures/letter/metadata.js';
import { letterBody } from '../../fixtures/letter/bodies.js';

// Real PDFs checked by real tools: poppler-utils (pdftotext, pdfinfo, pdffonts) and qpdf.

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

let dir: string;
let counter = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'letter-pdf-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const save = (pdf: Uint8Array) => {
  counter += 1;
  const file = join(dir, `letter-${counter}.pdf`);
  writeFileSync(file, pdf);
  return file;
};
const run = (command: string, args: string[]) => execFileSync(command, args, { encoding: 'utf8' });
const text = (file: string, ...args: string[]) => run('pdftotext', [...args, file, '-']);
const qpdfCheck = (file: string) => spawnSync('qpdf', ['--check', file], { encoding: 'utf8' });

describe('renderLetterPdf', () => {
  let file: string;
  beforeAll(async () => {
    file = save(await renderLetterPdf(meta, BODY, GENERATED));
  });

  it('writes a structurally valid US Letter PDF', () => {
    const check = qpdfCheck(file);
    expect(check.status).toBe(0);
    expect(check.stdout).toMatch(/No syntax or stream encoding errors/);
    const info = run('pdfinfo', [file]);
    expect(info).toMatch(/Pages:\s+1\b/);
    expect(info).toMatch(/Page size:\s+612 x 792 pts \(letter\)/);
    expect(info).toMatch(/Title:\s+Letter of Medical Necessity/);
  });

  it('keeps Unicode names and symbols intact', () => {
    const out = text(file);
    expect(out).toContain("José Núñez-O'Brien");
    expect(out).toContain('≥ 5 mg/m²');
  });

  it('has the header, patient section, body and signature in order', () => {
    const out = text(file, '-layout');
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

  it('embeds the DejaVu fonts the text uses, bold and italic included', () => {
    const fonts = run('pdffonts', [file]);
    for (const name of ['DejaVuSans-', 'DejaVuSans-Bold-', 'DejaVuSans-Oblique-', 'DejaVuSans-BoldOblique-']) {
      expect(fonts).toMatch(new RegExp(`${name}\\d+\\s+CID TrueType\\s+Identity-H\\s+yes`));
    }
  });

  it('uses bold italic only when the body asks for it', async () => {
    const fonts = run('pdffonts', [save(await renderLetterPdf(meta, 'Plain paragraph only. '.repeat(20), GENERATED))]);
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
    const threePages = save(await renderLetterPdf(meta, body, GENERATED));
    expect(qpdfCheck(threePages).status).toBe(0);
    expect(run('pdfinfo', [threePages])).toMatch(/Pages:\s+3\b/);
    for (let page = 1; page <= 3; page += 1) {
      const pageText = text(threePages, '-f', String(page), '-l', String(page));
      expect(pageText).toContain(`Page ${page} of 3`);
      expect(pageText).toContain('Generated 2026-11-22T12:46:26Z');
    }
    expect(text(threePages, '-f', '3', '-l', '3')).toContain('Dana Lee, MD');
  });

  it('keeps every word inside the margins, even a word longer than a line', async () => {
    const longWord = 'Pneumonoultramicroscopicsilicovolcanoconiosis'.repeat(4);
    const wide = save(await renderLetterPdf({ ...meta, facility_name: `Clinic${'W'.repeat(80)}` }, `Word: ${longWord} end.\n\n- ${longWord}`, GENERATED));
    const bbox = text(wide, '-bbox');
    const words = [...bbox.matchAll(/<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g)];
    expect(words.length).toBeGreaterThan(20);
    for (const [, xMin, xMax] of words) {
      expect(Number(xMin)).toBeGreaterThanOrEqual(72 - 0.5);
      expect(Number(xMax)).toBeLessThanOrEqual(612 - 72 + 0.5);
    }
    const joined = words.map((w) => w[3]).join('');
    expect(joined).toContain(`${longWord}end.`); // broken across lines, no character lost
  });

  it('draws characters no bundled font has as U+FFFD and counts them, never dropping or crashing', async () => {
    const report = await renderLetterPdfReport({ ...meta, patient_name: 'Ugaritic \u{10380}\u{10381}' }, `${BODY}\n\nLinear B: \u{10000}.`, GENERATED);
    expect(report.replacedCharacters).toBe(2 + 2 + 1); // the name twice (Re: block and patient information)
    const out = text(save(report.pdf));
    expect(out).toContain('Name: Ugaritic \uFFFD\uFFFD');
    expect(out).toContain('Linear B: \uFFFD.');
  });

  it('draws metadata literally, never as markdown', async () => {
    const out = text(save(await renderLetterPdf({ ...meta, patient_name: '**Bob** _x_ [y](z)' }, BODY, GENERATED)));
    expect(out).toContain('Name: **Bob** _x_ [y](z)');
  });
});
