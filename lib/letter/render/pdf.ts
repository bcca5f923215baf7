import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import { embedPdfFonts, RTL, TEXT, textDrawer, wrapRuns, type FaceRun, type PdfFonts, type WrappedLine } from '../../pdf/index.js';
import type { Block, FontStyle, Run } from '../compose/index.js';
import { formatLetterDate } from './date.js';
import {
  CRITERIA_COLUMNS,
  CRITERIA_TITLE,
  criterionCells,
  DENIAL_TITLE,
  denialLines,
  SERVICES_TITLE,
  serviceLines,
  type PayerSections,
} from './criteria-sections.js';
import { letterTitle, SOURCES_TITLE, type LetterContent } from './markdown.js';
import { reBlockLines, sourceLines } from './sections.js';

/**
 * The letter as a US Letter PDF (docs/letter.md#layout): header, "Re:" block, patient information,
 * the body's blocks, source documentation, signature, and a footer on every page with the
 * generation time and "Page N of M". Pages are laid out first and footed last, once M is known.
 * Metadata is drawn as text, never parsed as markdown. Text in any script goes through the font
 * fallback chain and the bidi/shaping drawer of the shared PDF toolkit (lib/pdf).
 */

const PAGE = { width: 612, height: 792 } as const;
const MARGIN = { left: 72, right: 72, top: 72, bottom: 72 } as const;
const CONTENT_WIDTH = PAGE.width - MARGIN.left - MARGIN.right;
const FOOTER_Y = 40;
const INDENT = 18;

const MUTED = rgb(0.4, 0.4, 0.4);
const RULE = rgb(0.75, 0.75, 0.75);
const SHADE = rgb(0.93, 0.93, 0.93);

const BODY = { size: 11, leading: 15.5 };
const HEADING_SIZE: Record<1 | 2 | 3, number> = { 1: 15, 2: 13, 3: 11.5 };

export interface RenderedLetter {
  pdf: Uint8Array;
  pages: number;
  /** Characters no bundled face can draw, drawn as U+FFFD (GLYPHS_REPLACED counts them). */
  replacedCharacters: number;
}

const timestamp = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

export async function renderLetterPdfReport(content: LetterContent): Promise<RenderedLetter> {
  const doc = await PDFDocument.create();
  doc.setTitle(letterTitle(content.meta));
  doc.setCreator('Letter of Medical Necessity service');
  doc.setProducer('pdf-lib');
  doc.setCreationDate(content.generatedAt);
  doc.setModificationDate(content.generatedAt);
  // Two passes over one layout: the first only collects the text each style draws, so exactly the
  // faces the letter needs are embedded (docs/letter.md#fonts); the second draws.
  const texts: Array<{ text: string; style: FontStyle }> = [];
  layOut(content, collector(texts));
  const footer = footerTexts(content.generatedAt, 99);
  texts.push(...footer.map((text) => ({ text, style: 'regular' as const })));
  const fonts = await embedPdfFonts(doc, texts);
  // Right-to-left values (a name in Arabic or Hebrew) are isolated wherever a line shows them.
  const isolated = [
    ...new Set(
      Object.values(content.meta)
        .filter((v): v is string => typeof v === 'string' && RTL.test(v))
        .map((v) => v.trim()),
    ),
  ].sort((a, b) => b.length - a.length);
  layOut(content, pageWriter(doc, fonts, isolated));

  const pages = doc.getPages();
  for (const [index, page] of pages.entries()) drawFooter(page, fonts, ...footerTexts(content.generatedAt, index + 1, pages.length));
  return { pdf: await doc.save(), pages: pages.length, replacedCharacters: fonts.replacedCharacters() };
}

const footerTexts = (generatedAt: Date, page: number, of = page): [string, string] => [`Generated ${timestamp(generatedAt)}`, `Page ${page} of ${of}`];

interface TextOptions {
  size: number;
  leading: number;
  after?: number;
}

/** What the layout asks of a writer; the collector and the page writer both answer it. */
interface Writer {
  text(runs: Run[], options: TextOptions, x?: number, width?: number): void;
  heading(runs: Run[], size: number): void;
  item(marker: string, runs: Run[], depth: 0 | 1): void;
  rule(): void;
  space(points: number): void;
  keepTogether(height: number): void;
  /** A table: cells wrap within their column; rows flow over pages, the header row repeated on each. */
  table(header: Run[][], rows: Run[][][], widths: number[]): void;
}

/** Headings are bold; italic inside them is bold italic. */
const headingRuns = (runs: Run[]): Run[] =>
  runs.map((run) => ({ ...run, style: run.style === 'italic' || run.style === 'boldItalic' ? 'boldItalic' : 'bold' }));

/** Requested services and the denial before the body, as labelled lines (./criteria-sections.ts). */
function payerBefore(payer: PayerSections | undefined, writer: Writer): void {
  if (payer?.services?.length) {
    writer.heading([{ text: SERVICES_TITLE, style: 'bold' }], HEADING_SIZE[3]);
    for (const line of serviceLines(payer.services)) writer.item('•', [{ text: line, style: 'regular' }], 0);
  }
  if (payer?.denial) {
    writer.heading([{ text: DENIAL_TITLE, style: 'bold' }], HEADING_SIZE[3]);
    for (const [label, value] of denialLines(payer.denial))
      writer.item(
        '•',
        [
          { text: `${label}: `, style: 'bold' },
          { text: value, style: 'regular' },
        ],
        0,
      );
  }
}

/** The criteria table after the body: criterion (with its policy pages), status, the notes pages. */
function criteriaTable(payer: PayerSections | undefined, writer: Writer): void {
  if (!payer?.criteria?.length) return;
  writer.heading([{ text: CRITERIA_TITLE, style: 'bold' }], HEADING_SIZE[3]);
  const plain = (text: string): Run[] => [{ text, style: 'regular' }];
  writer.table(
    CRITERIA_COLUMNS.map((title) => [{ text: title, style: 'bold' }]),
    payer.criteria.map((criterion) => criterionCells(criterion).map(plain)),
    [CONTENT_WIDTH * 0.62, CONTENT_WIDTH * 0.14, CONTENT_WIDTH * 0.24],
  );
}

function layOut({ meta, body, citations, generatedAt, payer }: LetterContent, writer: Writer): void {
  // Header: the center's name, contact details, date.
  writer.text([{ text: meta.facility_name, style: 'bold' }], { size: 18, leading: 22 });
  writer.text(
    [
      { text: 'Phone: ', style: 'bold' },
      { text: `${meta.provider_phone}     `, style: 'regular' },
      { text: 'E-mail: ', style: 'bold' },
      { text: meta.provider_email, style: 'regular' },
    ],
    { size: 10, leading: 14 },
  );
  writer.text(
    [
      { text: 'Date: ', style: 'bold' },
      { text: formatLetterDate(generatedAt), style: 'regular' },
    ],
    { size: 10, leading: 14 },
  );
  writer.rule();
  writer.text([{ text: letterTitle(meta), style: 'bold' }], { size: 15, leading: 20, after: 6 });
  const field = (label: string, value: string): Run[] => [
    { text: `${label}: `, style: 'bold' },
    { text: value, style: 'regular' },
  ];

  // "Re:" block: only the lines the request gave.
  writer.text([{ text: 'Re:', style: 'bold' }], BODY);
  const re = reBlockLines(meta);
  for (const [index, [label, value]] of re.entries()) {
    writer.text(field(label, value), { ...BODY, after: index === re.length - 1 ? 4 : 0 }, MARGIN.left + INDENT, CONTENT_WIDTH - INDENT);
  }

  // Patient information.
  writer.heading([{ text: 'Patient Information', style: 'bold' }], 12);
  writer.text(field('Name', meta.patient_name), BODY);
  writer.text(field('Age', meta.patient_age), BODY);
  writer.text(field('Patient identifier', meta.patient_identifier), { ...BODY, after: 4 });
  writer.rule();
  payerBefore(payer, writer);

  // The AI body.
  let previous: Block['kind'] | undefined;
  for (const block of body) {
    if (previous === 'item' && block.kind !== 'item') writer.space(5);
    switch (block.kind) {
      case 'heading':
        writer.heading(block.runs, HEADING_SIZE[block.level]);
        break;
      case 'paragraph':
        writer.text(block.runs, { ...BODY, after: 7 });
        break;
      case 'item':
        writer.item(block.marker, block.runs, block.depth);
        break;
      case 'rule':
        writer.rule();
        break;
    }
    previous = block.kind;
  }

  if (previous === 'item' && payer?.criteria?.length) {
    writer.space(5);
    previous = undefined;
  }
  criteriaTable(payer, writer);

  // Source documentation: the cited pages and passages (the notes', then the policy's and the denial's).
  const sources = sourceLines(citations, payer);
  if (sources.length) {
    if (previous === 'item') writer.space(5);
    writer.heading([{ text: SOURCES_TITLE, style: 'bold' }], HEADING_SIZE[3]);
    for (const { label, text } of sources)
      writer.item(
        '•',
        [
          { text: `${label} `, style: 'bold' },
          { text: `“${text}”`, style: 'regular' },
        ],
        0,
      );
  }

  // Signature, kept together on one page.
  writer.space(10);
  writer.keepTogether(BODY.leading * 2 + 18 + 16);
  writer.text([{ text: 'Sincerely,', style: 'regular' }], { ...BODY, after: 12 });
  writer.text([{ text: meta.provider_signature, style: 'italic' }], { size: 13, leading: 18 });
  writer.text([{ text: meta.provider_name, style: 'bold' }], BODY);
}

/** The first pass: remembers every text and the style it is drawn in. */
function collector(texts: Array<{ text: string; style: FontStyle }>): Writer {
  const add = (runs: Run[]) => {
    for (const { text, style } of runs) texts.push({ text, style });
  };
  return {
    text: add,
    heading: (runs) => add(headingRuns(runs)),
    item: (marker, runs) => add([{ text: marker, style: 'regular' }, ...runs]),
    rule: () => {},
    space: () => {},
    keepTogether: () => {},
    table: (header, rows) => {
      for (const cells of [header, ...rows]) for (const cell of cells) add(cell);
    },
  };
}

function drawFooter(page: PDFPage, fonts: PdfFonts, left: string, right: string) {
  const size = 8.5;
  const font = fonts.pdf('latin:regular');
  page.drawLine({ start: { x: MARGIN.left, y: FOOTER_Y + 12 }, end: { x: PAGE.width - MARGIN.right, y: FOOTER_Y + 12 }, thickness: 0.5, color: RULE });
  page.drawText(left, { x: MARGIN.left, y: FOOTER_Y, size, font, color: MUTED });
  page.drawText(right, { x: PAGE.width - MARGIN.right - font.widthOfTextAtSize(right, size), y: FOOTER_Y, size, font, color: MUTED });
}

/** A cursor over pages: places wrapped lines top-down and starts a new page when one is full. */
function pageWriter(doc: PDFDocument, fonts: PdfFonts, isolated: string[]): Writer {
  let page = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - MARGIN.top;
  const draw = textDrawer(doc, fonts, isolated);

  const clean = (runs: Run[]): FaceRun[] =>
    runs.flatMap((run) =>
      fonts
        .segments(run.text, run.style)
        .map((segment) => ({ text: segment.text, style: run.style, face: segment.face, ...(run.marker ? { marker: true as const } : {}) })),
    );

  const ensure = (height: number) => {
    if (y - height < MARGIN.bottom) {
      page = doc.addPage([PAGE.width, PAGE.height]);
      y = PAGE.height - MARGIN.top;
    }
  };

  const drawLines = (lines: WrappedLine[], x: number, size: number, leading: number) => {
    for (const line of lines) {
      ensure(leading);
      y -= leading;
      draw.line(page, line, x, y + (leading - size) / 2, size);
    }
  };

  const text = (runs: Run[], options: TextOptions, x: number = MARGIN.left, width: number = CONTENT_WIDTH) => {
    drawLines(wrapRuns(clean(runs), width, draw.measureAt(options.size)), x, options.size, options.leading);
    y -= options.after ?? 0;
  };

  return {
    text,
    space: (points: number) => {
      y -= points;
    },
    keepTogether: (height: number) => ensure(height),
    heading(runs: Run[], size: number) {
      const leading = size * 1.35;
      y -= 8;
      ensure(leading + BODY.leading * 2); // never strand a heading at the bottom of a page
      text(headingRuns(runs), { size, leading, after: 3 });
    },
    item(marker: string, runs: Run[], depth: 0 | 1) {
      const markerX = MARGIN.left + depth * INDENT;
      const textX = markerX + INDENT + (marker.length > 2 ? 6 : 0);
      const lines = wrapRuns(clean(runs), MARGIN.left + CONTENT_WIDTH - textX, draw.measureAt(BODY.size));
      ensure(BODY.leading);
      page.drawText(marker, {
        x: markerX,
        y: y - BODY.leading + (BODY.leading - BODY.size) / 2,
        size: BODY.size,
        font: fonts.pdf('latin:regular'),
        color: TEXT,
      });
      drawLines(lines, textX, BODY.size, BODY.leading);
      y -= 3;
    },
    table(header: Run[][], rows: Run[][][], widths: number[]) {
      const pad = 4;
      const measure = draw.measureAt(BODY.size);
      const wrapRow = (cells: Run[][]) => cells.map((cell, i) => wrapRuns(clean(cell), widths[i]! - pad * 2, measure));
      const heightOf = (wrapped: WrappedLine[][]) => Math.max(1, ...wrapped.map((lines) => lines.length)) * BODY.leading + pad * 2;
      const wrappedHeader = wrapRow(header);
      const drawRow = (wrapped: WrappedLine[][], height: number, shaded: boolean) => {
        let x = MARGIN.left;
        const top = y;
        if (shaded) page.drawRectangle({ x, y: top - height, width: CONTENT_WIDTH, height, color: SHADE });
        wrapped.forEach((lines, i) => {
          for (const [n, line] of lines.entries())
            draw.line(page, line, x + pad, top - pad - (n + 1) * BODY.leading + (BODY.leading - BODY.size) / 2, BODY.size);
          page.drawRectangle({ x, y: top - height, width: widths[i]!, height, borderColor: RULE, borderWidth: 0.5 });
          x += widths[i]!;
        });
        y -= height;
      };
      const headerHeight = heightOf(wrappedHeader);
      let headerOnPage = false;
      for (const cells of rows) {
        const wrapped = wrapRow(cells);
        const height = heightOf(wrapped);
        if (y - (headerOnPage ? 0 : headerHeight) - height < MARGIN.bottom) {
          page = doc.addPage([PAGE.width, PAGE.height]);
          y = PAGE.height - MARGIN.top;
          headerOnPage = false;
        }
        if (!headerOnPage) {
          drawRow(wrappedHeader, headerHeight, true);
          headerOnPage = true;
        }
        drawRow(wrapped, height, false);
      }
      y -= 6;
    },
    rule() {
      ensure(14);
      y -= 7;
      page.drawLine({ start: { x: MARGIN.left, y }, end: { x: PAGE.width - MARGIN.right, y }, thickness: 0.75, color: RULE });
      y -= 9;
    },
  };
}
