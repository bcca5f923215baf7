import { PDFDocument, rgb } from 'pdf-lib';
import { textDrawer } from './draw-text.js';
import { embedPdfFonts, type PdfFonts } from './fonts.js';
import type { FontStyle, Run } from './runs.js';
import { wrapRuns, type FaceRun } from './wrap.js';

/**
 * A one-page US Letter PDF laid out top-down (docs/api.md#printable-summary): the caller's layout
 * asks how much room is left and draws wrapped text, table rows and rules; nothing is ever drawn
 * below the bottom margin, so a long answer is cut by the layout (with "and N more"), never spilled
 * onto a second page. Text in any script goes through the font fallback chain and the bidi/shaping
 * drawer of this folder. The same content gives the same bytes: the document's dates are the ones
 * given, and pdf-lib's subset names come from its seeded generator.
 */

export const PAGE = { width: 612, height: 792 } as const;
export const MARGIN = 48;
export const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;

const RULE = rgb(0.75, 0.75, 0.75);

export interface TextOptions {
  size: number;
  leading: number;
  /** From the left margin. */
  indent?: number;
  /** Lines kept at most; a longer text ends with "…". */
  maxLines?: number;
}

export interface Cell {
  runs: Run[];
  /** From the left margin. */
  x: number;
  width: number;
}

/** What a layout asks of the page. The first pass only collects the text (with all the room there is). */
export interface PageWriter {
  /** Points left above the bottom margin. */
  room(): number;
  /** The height `runs` takes as a block of text. */
  height(runs: Run[], options: TextOptions): number;
  text(runs: Run[], options: TextOptions): void;
  /** One table row: each cell on one line (cut with "…" when too wide). */
  row(cells: Cell[], size: number, leading: number): void;
  rule(): void;
  space(points: number): void;
}

export interface PageMeta {
  title: string;
  creator: string;
  /** The document's creation and modification date. */
  date: Date;
}

/** Renders `layout` onto one page; the fonts embedded are exactly those its text needs. */
export async function onePagePdf(meta: PageMeta, layout: (writer: PageWriter) => void): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(meta.title);
  doc.setCreator(meta.creator);
  doc.setProducer('pdf-lib');
  doc.setCreationDate(meta.date);
  doc.setModificationDate(meta.date);
  const texts: Array<{ text: string; style: FontStyle }> = [{ text: '…', style: 'regular' }];
  layout(collector(texts));
  const fonts = await embedPdfFonts(doc, texts);
  layout(pageWriter(doc, fonts));
  return doc.save();
}

function collector(texts: Array<{ text: string; style: FontStyle }>): PageWriter {
  const add = (runs: Run[]) => {
    for (const { text, style } of runs) texts.push({ text, style });
  };
  return {
    room: () => Number.POSITIVE_INFINITY,
    height: () => 0,
    text: add,
    row: (cells) => {
      for (const cell of cells) add(cell.runs);
    },
    rule: () => {},
    space: () => {},
  };
}

function pageWriter(doc: PDFDocument, fonts: PdfFonts): PageWriter {
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const draw = textDrawer(doc, fonts);
  let y = PAGE.height - MARGIN;

  const faceRuns = (runs: Run[]): FaceRun[] =>
    runs.flatMap((run) => fonts.segments(run.text, run.style).map((segment) => ({ text: segment.text, style: run.style, face: segment.face })));
  const wrapped = (runs: Run[], width: number, size: number) => wrapRuns(faceRuns(runs), width, draw.measureAt(size));
  /** The first `count` lines of `runs`, the last ending in "…" when text was left out. */
  const kept = (runs: Run[], width: number, size: number, count: number) => {
    const lines = wrapped(runs, width, size);
    if (lines.length <= count) return lines;
    const ellipsis = draw.measureAt(size)('…', 'regular');
    const cut = wrapped(runs, width - ellipsis, size).slice(0, count);
    const last = cut[cut.length - 1]!;
    last.runs.push({ text: '…', style: 'regular', face: 'latin:regular', x: last.width, width: ellipsis });
    last.width += ellipsis;
    return cut;
  };
  const fitsLines = (options: TextOptions, lines: number) => Math.max(0, Math.min(lines, Math.floor((y - MARGIN) / options.leading)));

  return {
    room: () => y - MARGIN,
    height: (runs, options) =>
      Math.min(wrapped(runs, CONTENT_WIDTH - (options.indent ?? 0), options.size).length, options.maxLines ?? Infinity) * options.leading,
    text(runs, options) {
      const width = CONTENT_WIDTH - (options.indent ?? 0);
      const all = wrapped(runs, width, options.size).length;
      const count = fitsLines(options, Math.min(all, options.maxLines ?? all));
      for (const line of kept(runs, width, options.size, count)) {
        y -= options.leading;
        draw.line(page, line, MARGIN + (options.indent ?? 0), y + (options.leading - options.size) / 2, options.size);
      }
    },
    row(cells, size, leading) {
      if (y - leading < MARGIN) return;
      y -= leading;
      for (const cell of cells) {
        const [line] = kept(cell.runs, cell.width, size, 1);
        if (line) draw.line(page, line, MARGIN + cell.x, y + (leading - size) / 2, size);
      }
    },
    rule() {
      if (y - 10 < MARGIN) return;
      y -= 5;
      page.drawLine({ start: { x: MARGIN, y }, end: { x: PAGE.width - MARGIN, y }, thickness: 0.75, color: RULE });
      y -= 5;
    },
    space(points) {
      y = Math.max(MARGIN, y - points);
    },
  };
}
