import { describe, expect, it } from '@jest/globals';
import type { Criterion } from '../../../lib/letter/compose/index.js';
import { parseLetterMarkdown } from '../../../lib/letter/compose/body-markdown.js';
import { renderLetterPdfReport } from '../../../lib/letter/render/pdf.js';
import { LETTER_META as meta } from '../../fixtures/letter/metadata.js';
import { pdfText } from '../../support/pdf-tools.js';

// The criteria table of the PDF (docs/letter.md#letter-types): cells wrap inside their columns, rows
// flow over pages with the header repeated, and every script renders inside a cell.

/** The text as pdftotext -layout reads it (docs/testing.md#pdf-tools), bidi marks aside. */
const text = async (pdf: Uint8Array) => (await pdfText(pdf)).replace(/[\u202A-\u202E\u2066-\u2069]/g, '');
const criterion = (words: string, status: Criterion['status'], page?: number): Criterion => ({
  criterion: words,
  policyPages: [1],
  status,
  evidence: page ? [{ page, citedText: 'x' }] : [],
});
const render = (criteria: Criterion[]) =>
  renderLetterPdfReport({
    meta,
    body: parseLetterMarkdown('## Request\n\nThe requested service meets the policy, criterion by criterion, as the table shows.'),
    citations: [],
    generatedAt: new Date('2026-03-09T09:00:00Z'),
    payer: { policyCitations: [], denialCitations: [], criteria },
  });

describe('criteria table', () => {
  it('flows 40 rows over pages, repeating the header on each page the table reaches', async () => {
    const rows = Array.from({ length: 40 }, (_, i) =>
      criterion(`Criterion number ${i + 1} of the sample policy, stated at some length so that it wraps.`, i % 3 === 0 ? 'not_met' : 'met', i + 1),
    );
    const { pdf, pages } = await render(rows);
    expect(pages).toBeGreaterThanOrEqual(3);
    const out = await text(pdf);
    for (let i = 1; i <= 40; i += 1) expect(out).toContain(`Criterion number ${i} of the sample policy`);
    // Every page that holds a row starts its part of the table with the header row.
    const tablePages = out.split('\f').filter((page) => /Criterion number \d+/.test(page));
    expect(tablePages.length).toBeGreaterThanOrEqual(2);
    for (const page of tablePages) {
      const header = page.search(/Criterion\s+Status\s+Evidence \(notes/);
      expect(header).toBeGreaterThanOrEqual(0);
      expect(header).toBeLessThan(page.search(/Criterion number \d+/));
    }
  });

  it('draws a criterion in any script inside its cell', async () => {
    const words = ['Γιώργος Παπαδόπουλος', '山田 太郎', 'Иван Петров', 'राम शर्मा'];
    const { pdf, replacedCharacters } = await render(words.map((w) => criterion(`Documented by ${w}.`, 'unclear')));
    expect(replacedCharacters).toBe(0);
    const out = await text(pdf);
    for (const w of words) expect(out).toContain(w);
    expect(out.match(/Unclear/g)).toHaveLength(4);
  });
});
