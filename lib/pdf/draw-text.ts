import bidiFactory from 'bidi-js';
import {
  beginText,
  endText,
  PDFHexString,
  PDFName,
  PDFOperator,
  PDFOperatorNames,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setFillingColor,
  setFontAndSize,
  setTextMatrix,
  showText,
  type PDFDocument,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib';
import type { FontStyle } from './runs.js';
import { isShaped, shape, type FaceKey, type PdfFonts } from './fonts.js';
import type { Measure, PlacedRun, WrappedLine } from './wrap.js';

/**
 * Draws wrapped lines of mixed scripts (docs/letter.md#fonts).
 *
 * - Bidi: a line holding right-to-left text gets its embedding levels from the Unicode bidi
 *   algorithm (bidi-js) and its pieces reordered for display (rule L2); a right-to-left piece is
 *   shaped right-to-left, so its glyphs come out in visual order. The letter is English: every line
 *   is a left-to-right paragraph (a line that starts with an Arabic name is not turned around), and
 *   the request's right-to-left values (a patient's name) are isolates (U+2068…U+2069 given to the
 *   algorithm, never drawn), so a number or word after them keeps its place in the sentence.
 * - Shaping: Arabic, Hebrew, Devanagari, CJK, math and emoji faces are laid out with fontkit's
 *   OpenType engine (joining forms, ligatures, reordering, mark positions) and drawn glyph by glyph.
 *   Each such piece is wrapped in a marked-content span whose ActualText is the piece's text in
 *   logical order, so copy-paste and pdftotext give the characters as written, not as drawn.
 * - DejaVu (Latin, Greek, Cyrillic) pieces take pdf-lib's own drawText: no shaping needed.
 */

export const TEXT = rgb(0.1, 0.1, 0.1);

const bidi = bidiFactory();
/** Characters of right-to-left scripts; a line without any needs no bidi pass. */
export const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;

interface Piece {
  text: string;
  style: FontStyle;
  face: FaceKey;
  level: number;
}

/** Adjacent placed runs of one face and style, joined back into logical text. */
function joinRuns(runs: PlacedRun[]): Piece[] {
  const pieces: Piece[] = [];
  for (const run of runs) {
    const face = run.face ?? (`latin:${run.style}` as FaceKey);
    const last = pieces[pieces.length - 1];
    if (last && last.face === face && last.style === run.style) last.text += run.text;
    else pieces.push({ text: run.text, style: run.style, face, level: 0 });
  }
  return pieces;
}

const FSI = '\u2068';
const PDI = '\u2069';

/** Embedding levels of `text` in a left-to-right paragraph, each occurrence of an `isolated` value an isolate. */
function levelsOf(text: string, isolated: string[]): ArrayLike<number> {
  const starts = new Set<number>();
  const ends = new Set<number>();
  const taken: Array<[number, number]> = [];
  for (const value of isolated) {
    for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + value.length)) {
      if (taken.some(([s, e]) => at < e && at + value.length > s)) continue;
      taken.push([at, at + value.length]);
      starts.add(at);
      ends.add(at + value.length - 1);
    }
  }
  if (taken.length === 0) return bidi.getEmbeddingLevels(text, 'ltr').levels;
  let input = '';
  const index: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (starts.has(i)) input += FSI;
    index.push(input.length);
    input += text[i];
    if (ends.has(i)) input += PDI;
  }
  const { levels } = bidi.getEmbeddingLevels(input, 'ltr');
  return index.map((at) => levels[at]!);
}

/** Splits pieces where the embedding level changes, then orders them for display (UAX #9, L2). */
function visualOrder(pieces: Piece[], isolated: string[]): Piece[] {
  const text = pieces.map((piece) => piece.text).join('');
  const levels = levelsOf(text, isolated);
  const split: Piece[] = [];
  let offset = 0;
  for (const piece of pieces) {
    let start = 0;
    for (let i = 1; i <= piece.text.length; i += 1) {
      if (i === piece.text.length || levels[offset + i] !== levels[offset + start]) {
        split.push({ ...piece, text: piece.text.slice(start, i), level: levels[offset + start]! });
        start = i;
      }
    }
    offset += piece.text.length;
  }
  const maxLevel = Math.max(0, ...split.map((piece) => piece.level));
  const lowestOdd = Math.min(...split.map((piece) => piece.level).filter((level) => level % 2 === 1), maxLevel + 1);
  for (let level = maxLevel; level >= lowestOdd; level -= 1) {
    for (let i = 0; i < split.length; ) {
      if (split[i]!.level < level) {
        i += 1;
        continue;
      }
      let end = i;
      while (end < split.length && split[end]!.level >= level) end += 1;
      split.splice(i, end - i, ...split.slice(i, end).reverse());
      i = end;
    }
  }
  return split;
}

/** pdf-lib's subset embedder (not public API): glyph ids go through it so the subset holds them. */
interface SubsetEmbedder {
  subset: { includeGlyph(glyph: unknown): number };
  glyphs: unknown[];
  glyphIdMap: Map<number, number>;
  glyphCache: { invalidate(): void };
}

const hex4 = (n: number) => n.toString(16).padStart(4, '0');

/**
 * `isolated`: the request's values that hold right-to-left text, longest first; each occurrence on
 * a line is isolated from the sentence around it.
 */
export function textDrawer(doc: PDFDocument, fonts: PdfFonts, isolated: string[] = []) {
  const shapedWidths = new Map<string, number>();
  const fontKeys = new WeakMap<PDFPage, Map<PDFFont, PDFName>>();

  const shapedWidth = (face: FaceKey, text: string): number => {
    const key = `${face}\u0000${text}`;
    let width = shapedWidths.get(key);
    if (width === undefined) {
      const { run, unitsPerEm } = shape(face, text, 'ltr');
      width = run.positions.reduce((sum, p) => sum + p.xAdvance, 0) / unitsPerEm;
      shapedWidths.set(key, width);
    }
    return width;
  };

  /** Width at `size` (in 1-point units, cached per face and text): shaped advance for shaped faces, else per-character advances. */
  const unitWidths = new Map<FaceKey, Map<string, number>>();
  const unitWidth = (face: FaceKey, text: string): number => {
    let table = unitWidths.get(face);
    if (!table) {
      table = new Map();
      unitWidths.set(face, table);
    }
    let width = table.get(text);
    if (width === undefined) {
      if (isShaped(face)) {
        width = shapedWidth(face, text);
      } else {
        const font = fonts.pdf(face);
        width = 0;
        for (const char of text) {
          let w = table.get(char);
          if (w === undefined) {
            w = font.widthOfTextAtSize(char, 1);
            table.set(char, w);
          }
          width += w;
        }
      }
      table.set(text, width);
    }
    return width;
  };
  const measureAt =
    (size: number): Measure =>
    (text, style, face = `latin:${style}` as FaceKey) =>
      unitWidth(face, text) * size;

  const fontName = (page: PDFPage, font: PDFFont): PDFName => {
    let names = fontKeys.get(page);
    if (!names) {
      names = new Map();
      fontKeys.set(page, names);
    }
    let name = names.get(font);
    if (!name) {
      name = page.node.newFontDictionary(font.name, font.ref);
      names.set(font, name);
    }
    return name;
  };

  /** Shaped glyphs, each placed at its pen position and offsets, inside an ActualText span. */
  const drawShaped = (page: PDFPage, piece: Piece, x: number, y: number, size: number): number => {
    const { run, unitsPerEm } = shape(piece.face, piece.text, piece.level % 2 === 1 ? 'rtl' : 'ltr');
    const font = fonts.pdf(piece.face);
    const embedder = (font as unknown as { embedder: SubsetEmbedder }).embedder;
    const scale = size / unitsPerEm;
    const rtl = piece.level % 2 === 1;
    const operators: PDFOperator[] = [pushGraphicsState()];
    // Left-to-right pieces whose glyphs may be reordered or merged (Devanagari matras, ligatures) carry
    // their text as ActualText. Right-to-left pieces do not: their glyphs are drawn in visual order and
    // map to their characters (ToUnicode), which is what readers expect and reverse into logical order.
    // pdf-lib's operator type omits dictionaries, though it writes any PDF object given (BDC takes one).
    if (!rtl)
      operators.push(
        PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [
          PDFName.of('Span'),
          doc.context.obj({ ActualText: PDFHexString.fromText(piece.text) }) as unknown as PDFName,
        ]),
      );
    operators.push(beginText(), setFontAndSize(fontName(page, font), size), setFillingColor(TEXT));
    let pen = 0;
    run.glyphs.forEach((glyph, i) => {
      const position = run.positions[i]!;
      const id = embedder.subset.includeGlyph(glyph);
      // Text extractors (poppler, pdf.js) read a right-to-left glyph's characters as laid out left to
      // right and then reverse the run; a ligature (lam-alef) therefore maps to its letters reversed.
      embedder.glyphs[id - 1] =
        rtl && glyph.codePoints.length > 1 ? Object.assign(Object.create(glyph) as object, { codePoints: [...glyph.codePoints].reverse() }) : glyph;
      embedder.glyphIdMap.set(glyph.id, id);
      operators.push(setTextMatrix(1, 0, 0, 1, x + (pen + position.xOffset) * scale, y + position.yOffset * scale), showText(PDFHexString.of(hex4(id))));
      pen += position.xAdvance;
    });
    embedder.glyphCache.invalidate();
    operators.push(endText());
    if (!rtl) operators.push(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
    operators.push(popGraphicsState());
    page.pushOperators(...operators);
    return pen * scale;
  };

  /** One wrapped line at (x, y): logical runs → display pieces → glyphs. */
  const line = (page: PDFPage, wrapped: WrappedLine, x: number, y: number, size: number): void => {
    const joined = joinRuns(wrapped.runs);
    const pieces = joined.some((piece) => RTL.test(piece.text)) ? visualOrder(joined, isolated) : joined;
    const measure = measureAt(size);
    let pen = x;
    for (const piece of pieces) {
      if (!piece.text) continue;
      if (isShaped(piece.face) || piece.level % 2 === 1) {
        pen += drawShaped(page, piece, pen, y, size);
      } else {
        page.drawText(piece.text, { x: pen, y, size, font: fonts.pdf(piece.face), color: TEXT });
        pen += measure(piece.text, piece.style, piece.face);
      }
    }
  };

  return { measureAt, line };
}
