import type { PdfValue } from './pdf-syntax.js';

/**
 * A strict reader of PDF object syntax (ISO 32000-1 §7.3) for the structural check
 * (docs/security.md#pdf-structure), following pdf-lib's own grammar: what it accepts, pdf-lib
 * parses in one linear pass. It never recurses past MAX_DEPTH, counts every token against one
 * budget shared by the whole file (object streams included), and reports where a value ends, so
 * the caller can walk the file object by object. Values are built only when asked (a stream's
 * dictionary, a trailer, a page-tree node), and only MAX_BUILD_DEPTH deep.
 */

/** Nesting of arrays and dictionaries; real files stay under 20. */
export const MAX_DEPTH = 64;
/** Tokens (numbers, names, strings, brackets...) outside stream data, across the whole file. */
const MAX_TOKENS = 1_000_000;
/** Built values deeper than this are kept as `other` (nothing the checks read is deeper). */
const MAX_BUILD_DEPTH = 4;

export type ScanFailure = 'unreadable' | 'too-deep' | 'too-many-tokens';

export type Scanned = { ok: true; end: number; value: PdfValue } | { ok: false; reason: ScanFailure };

enum C {
  Tab = 0x09,
  Newline = 0x0a,
  FormFeed = 0x0c,
  Return = 0x0d,
  Space = 0x20,
  Percent = 0x25,
  LeftParen = 0x28,
  RightParen = 0x29,
  Plus = 0x2b,
  Minus = 0x2d,
  Period = 0x2e,
  Slash = 0x2f,
  Less = 0x3c,
  Greater = 0x3e,
  R = 0x52,
  LeftBracket = 0x5b,
  Backslash = 0x5c,
  RightBracket = 0x5d,
}

const isWhite = (c: number) => c === C.Space || c === C.Newline || c === C.Return || c === C.Tab || c === C.FormFeed || c === 0;
const isDelimiter = (c: number) =>
  c === C.LeftParen ||
  c === C.RightParen ||
  c === C.Less ||
  c === C.Greater ||
  c === C.LeftBracket ||
  c === C.RightBracket ||
  c === 0x7b ||
  c === 0x7d ||
  c === C.Slash ||
  c === C.Percent;
export const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isNumeric = (c: number) => isDigit(c) || c === C.Plus || c === C.Minus || c === C.Period;

class Stop extends Error {
  constructor(readonly reason: ScanFailure) {
    super(reason);
  }
}

const OTHER: PdfValue = { kind: 'other' };

/** Reads values from a latin1 view of PDF bytes; one instance per file, so the token budget is shared. */
export class ValueScanner {
  tokens = 0;
  constructor(
    readonly text: string,
    readonly maxTokens: number = MAX_TOKENS,
  ) {}

  /** Skips whitespace and comments from `p`; returns the next position. */
  skip(p: number, text: string = this.text): number {
    for (;;) {
      const c = text.charCodeAt(p);
      if (isWhite(c)) p++;
      else if (c === C.Percent) {
        while (p < text.length && text.charCodeAt(p) !== C.Newline && text.charCodeAt(p) !== C.Return) p++;
      } else return p;
    }
  }

  /** The value at `pos` (after whitespace) in `text` (the file, or an object stream's decoded data). */
  value(pos: number, build: boolean, text: string = this.text): Scanned {
    try {
      const state = { p: pos };
      const value = this.read(text, state, 0, build);
      return { ok: true, end: state.p, value };
    } catch (error) {
      if (error instanceof Stop) return { ok: false, reason: error.reason };
      // A stack this shallow cannot overflow; anything else is a bug, not a verdict on the file.
      throw error;
    }
  }

  /** A run of digits at `p` (pdf-lib's parseRawInt), or undefined. */
  static rawInt(text: string, p: number): { value: number; end: number } | undefined {
    // At most 15 digits are read (an object number or offset never has more): constant work per call.
    let end = p;
    while (end - p <= 15 && isDigit(text.charCodeAt(end))) end++;
    return end > p && end - p <= 15 ? { value: Number(text.slice(p, end)), end } : undefined;
  }

  private count(): void {
    if (++this.tokens > this.maxTokens) throw new Stop('too-many-tokens');
  }

  private read(text: string, s: { p: number }, depth: number, build: boolean): PdfValue {
    if (depth > MAX_DEPTH) throw new Stop('too-deep');
    s.p = this.skip(s.p, text);
    this.count();
    const keep = build && depth <= MAX_BUILD_DEPTH;
    const c = text.charCodeAt(s.p);
    for (const word of ['true', 'false', 'null'] as const) {
      if (text.startsWith(word, s.p)) {
        s.p += word.length;
        return OTHER;
      }
    }
    if (c === C.Less && text.charCodeAt(s.p + 1) === C.Less) return this.dict(text, s, depth, keep);
    if (c === C.Less) {
      const close = text.indexOf('>', s.p);
      if (close < 0) throw new Stop('unreadable');
      s.p = close + 1;
      return OTHER;
    }
    if (c === C.LeftParen) {
      this.literal(text, s);
      return OTHER;
    }
    if (c === C.Slash) return this.name(text, s);
    if (c === C.LeftBracket) {
      s.p++;
      const items: PdfValue[] = [];
      for (s.p = this.skip(s.p, text); text.charCodeAt(s.p) !== C.RightBracket; s.p = this.skip(s.p, text)) {
        if (s.p >= text.length) throw new Stop('unreadable');
        const item = this.read(text, s, depth + 1, keep);
        if (keep) items.push(item);
      }
      s.p++;
      return keep ? { kind: 'array', items } : OTHER;
    }
    if (isNumeric(c)) return this.numberOrRef(text, s);
    throw new Stop('unreadable');
  }

  private dict(text: string, s: { p: number }, depth: number, keep: boolean): PdfValue {
    s.p += 2;
    const entries = new Map<string, PdfValue[]>();
    // pdf-lib's loop: it stops at the first `>` in either of the next two bytes.
    for (s.p = this.skip(s.p, text); text.charCodeAt(s.p) !== C.Greater && text.charCodeAt(s.p + 1) !== C.Greater; s.p = this.skip(s.p, text)) {
      if (s.p >= text.length || text.charCodeAt(s.p) !== C.Slash) throw new Stop('unreadable');
      const key = this.name(text, s);
      this.count();
      const value = this.read(text, s, depth + 1, keep);
      // pdf-lib keeps the last of two equal keys.
      if (keep && key.kind === 'name') entries.set(key.name, [value]);
    }
    s.p = this.skip(s.p, text);
    if (!text.startsWith('>>', s.p)) throw new Stop('unreadable');
    s.p += 2;
    return keep ? { kind: 'dict', entries } : OTHER;
  }

  private name(text: string, s: { p: number }): PdfValue {
    const start = ++s.p;
    while (s.p < text.length && !isWhite(text.charCodeAt(s.p)) && !isDelimiter(text.charCodeAt(s.p))) s.p++;
    return { kind: 'name', name: text.slice(start, s.p) };
  }

  /** pdf-lib's literal string: parentheses nest unless escaped; unbalanced is unreadable. */
  private literal(text: string, s: { p: number }): void {
    let depth = 0;
    let escaped = false;
    while (s.p < text.length) {
      const c = text.charCodeAt(s.p++);
      if (!escaped) {
        if (c === C.LeftParen) depth++;
        if (c === C.RightParen) depth--;
      }
      escaped = c === C.Backslash ? !escaped : false;
      if (depth === 0) return;
    }
    throw new Stop('unreadable');
  }

  private static rawNumber(text: string, p: number): { value: number; end: number } | undefined {
    let end = p;
    while (isNumeric(text.charCodeAt(end))) {
      end++;
      if (text.charCodeAt(end - 1) === C.Period) break;
    }
    while (isDigit(text.charCodeAt(end))) end++;
    const value = Number(text.slice(p, end));
    return end > p && Number.isFinite(value) ? { value, end } : undefined;
  }

  private numberOrRef(text: string, s: { p: number }): PdfValue {
    const first = ValueScanner.rawNumber(text, s.p);
    if (!first) throw new Stop('unreadable');
    s.p = first.end;
    const ahead = this.skip(s.p, text);
    if (isDigit(text.charCodeAt(ahead))) {
      const second = ValueScanner.rawNumber(text, ahead);
      if (second) {
        const r = this.skip(second.end, text);
        if (text.charCodeAt(r) === C.R) {
          s.p = r + 1;
          return { kind: 'ref', num: first.value, gen: second.value };
        }
      }
    }
    return { kind: 'number', value: first.value };
  }
}
