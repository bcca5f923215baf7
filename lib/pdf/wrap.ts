import type { FontStyle, Run } from './runs.js';
import type { FaceKey } from './fonts.js';

/**
 * Word wrapping for mixed-style runs: breaks at spaces, keeps a word whose pieces differ in style
 * ("**bold**,") together, and breaks a word wider than the line by characters so no text ever
 * crosses the margin. Pure: measuring is injected, so layout is testable without fonts.
 */

export type Measure = (text: string, style: FontStyle, face?: FaceKey) => number;

/** A run of one style and (after font fallback) one face. */
export type FaceRun = Run & { face?: FaceKey };

export interface PlacedRun {
  text: string;
  style: FontStyle;
  face?: FaceKey;
  /** Offset from the line's left edge. */
  x: number;
  width: number;
}

export interface WrappedLine {
  runs: PlacedRun[];
  width: number;
}

type Piece = FaceRun;
const sameFace = (a: Piece, b: Piece) => a.style === b.style && a.face === b.face;

/** Splits runs into words (arrays of styled pieces); whitespace separates words. */
function words(runs: FaceRun[]): Piece[][] {
  const result: Piece[][] = [];
  let current: Piece[] = [];
  for (const run of runs) {
    // A citation marker ("[p. 12]") is one word: it never breaks inside.
    const parts = run.marker ? [run.text] : run.text.split(/(\s+)/);
    for (const part of parts) {
      if (part === '') continue;
      if (!run.marker && /^\s+$/.test(part)) {
        if (current.length) result.push(current);
        current = [];
      } else {
        current.push({ text: part, style: run.style, ...(run.face ? { face: run.face } : {}) });
      }
    }
  }
  if (current.length) result.push(current);
  return result;
}

/** Cuts a too-long word into chunks that each fit `maxWidth` (at least one character per chunk). */
function splitWord(word: Piece[], maxWidth: number, measure: Measure): Piece[][] {
  const chunks: Piece[][] = [];
  let chunk: Piece[] = [];
  let width = 0;
  for (const piece of word) {
    for (const char of piece.text) {
      const w = measure(char, piece.style, piece.face);
      if (width + w > maxWidth && width > 0) {
        chunks.push(chunk);
        chunk = [];
        width = 0;
      }
      const last = chunk[chunk.length - 1];
      if (last && sameFace(last, piece)) last.text += char;
      else chunk.push({ text: char, style: piece.style, ...(piece.face ? { face: piece.face } : {}) });
      width += w;
    }
  }
  if (chunk.length) chunks.push(chunk);
  return chunks;
}

export function wrapRuns(runs: FaceRun[], maxWidth: number, measure: Measure): WrappedLine[] {
  const lines: WrappedLine[] = [];
  let line: PlacedRun[] = [];
  let x = 0;
  const newLine = () => {
    if (line.length) lines.push({ runs: line, width: x });
    line = [];
    x = 0;
  };
  const place = (word: Piece[], wordWidth: number) => {
    if (line.length) {
      const last = line[line.length - 1];
      const space = measure(' ', last.style, last.face);
      if (x + space + wordWidth > maxWidth) newLine();
      else {
        last.text += ' ';
        last.width += space;
        x += space;
      }
    }
    for (const piece of word) {
      const width = measure(piece.text, piece.style, piece.face);
      line.push({ text: piece.text, style: piece.style, ...(piece.face ? { face: piece.face } : {}), x, width });
      x += width;
    }
  };

  for (const word of words(runs)) {
    const width = word.reduce((sum, piece) => sum + measure(piece.text, piece.style, piece.face), 0);
    if (width <= maxWidth) {
      place(word, width);
      continue;
    }
    newLine();
    for (const chunk of splitWord(word, maxWidth, measure)) {
      newLine();
      place(
        chunk,
        chunk.reduce((sum, piece) => sum + measure(piece.text, piece.style, piece.face), 0),
      );
    }
  }
  newLine();
  // Trailing spaces added before a break are not part of the line's visible width.
  for (const wrapped of lines) {
    const last = wrapped.runs[wrapped.runs.length - 1];
    if (last.text.endsWith(' ')) {
      last.text = last.text.trimEnd();
      last.width = measure(last.text, last.style, last.face);
      wrapped.width = last.x + last.width;
    }
  }
  return lines;
}
