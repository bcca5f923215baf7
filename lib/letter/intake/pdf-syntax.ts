/**
 * Just enough PDF object syntax (ISO 32000-1 §7.3) for the decompression guard to read a stream's
 * dictionary: names (with #xx escapes), numbers, indirect references, arrays, dictionaries,
 * strings, booleans and null, with comments skipped. It reads a latin1 view of the file and never
 * reads past `limit`, so the caller bounds the work (docs/security.md#pdf-bombs).
 */

export type PdfValue =
  | { kind: 'name'; name: string }
  | { kind: 'number'; value: number }
  | { kind: 'ref'; num: number; gen: number }
  | { kind: 'array'; items: PdfValue[] }
  /** Every value a key was given: readers disagree on which of two equal keys wins. */
  | { kind: 'dict'; entries: Map<string, PdfValue[]> }
  | { kind: 'other' };

export interface Parsed {
  value: PdfValue;
  /** Position just after the value. */
  end: number;
}

const MAX_DEPTH = 32;
const isWhite = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
const isDelimiter = (c: number) =>
  c === 0x28 || c === 0x29 || c === 0x3c || c === 0x3e || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === 0x2f || c === 0x25;
const isRegular = (c: number) => !Number.isNaN(c) && !isWhite(c) && !isDelimiter(c);

class Stop extends Error {}

/** Parses one value at `pos` (after optional whitespace); undefined when the text there is not one. */
export function parsePdfValue(text: string, pos: number, limit: number = text.length): Parsed | undefined {
  let p = pos;
  const at = (i: number) => (i < limit ? text.charCodeAt(i) : Number.NaN);
  const stop = (): never => {
    throw new Stop();
  };

  const skip = () => {
    for (;;) {
      const c = at(p);
      if (isWhite(c)) p++;
      else if (c === 0x25) {
        while (p < limit && at(p) !== 0x0a && at(p) !== 0x0d) p++;
      } else return;
    }
  };

  const regularRun = (): string => {
    const start = p;
    while (isRegular(at(p))) p++;
    return text.slice(start, p);
  };

  const literalString = () => {
    // at '('; parentheses nest unless escaped
    p++;
    let depth = 1;
    while (depth > 0) {
      const c = at(p);
      if (Number.isNaN(c)) stop();
      if (c === 0x5c) p += 2;
      else {
        if (c === 0x28) depth++;
        else if (c === 0x29) depth--;
        p++;
      }
    }
  };

  const value = (depth: number): PdfValue => {
    if (depth > MAX_DEPTH) stop();
    skip();
    const c = at(p);
    if (Number.isNaN(c)) stop();
    if (c === 0x2f) {
      p++;
      const raw = regularRun();
      return { kind: 'name', name: raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))) };
    }
    if (c === 0x3c && at(p + 1) === 0x3c) {
      p += 2;
      const entries = new Map<string, PdfValue[]>();
      for (;;) {
        skip();
        if (at(p) === 0x3e && at(p + 1) === 0x3e) {
          p += 2;
          return { kind: 'dict', entries };
        }
        const key = value(depth + 1);
        if (key.kind !== 'name') return stop();
        const item = value(depth + 1);
        const seen = entries.get(key.name);
        if (seen) seen.push(item);
        else entries.set(key.name, [item]);
      }
    }
    if (c === 0x3c) {
      const close = text.indexOf('>', p);
      if (close < 0 || close >= limit) stop();
      p = close + 1;
      return { kind: 'other' };
    }
    if (c === 0x5b) {
      p++;
      const items: PdfValue[] = [];
      for (;;) {
        skip();
        if (at(p) === 0x5d) {
          p++;
          return { kind: 'array', items };
        }
        items.push(value(depth + 1));
      }
    }
    if (c === 0x28) {
      literalString();
      return { kind: 'other' };
    }
    const word = regularRun();
    if (word === '') stop();
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) {
      // "N G R" is a reference; look ahead without consuming when it is not.
      if (/^\d+$/.test(word)) {
        const save = p;
        skip();
        const gen = regularRun();
        if (/^\d+$/.test(gen)) {
          skip();
          if (at(p) === 0x52 && !isRegular(at(p + 1))) {
            p++;
            return { kind: 'ref', num: Number(word), gen: Number(gen) };
          }
        }
        p = save;
      }
      return { kind: 'number', value: Number(word) };
    }
    return { kind: 'other' };
  };

  try {
    const parsed = value(0);
    return { value: parsed, end: p };
  } catch (error) {
    if (error instanceof Stop) return undefined;
    throw error;
  }
}
