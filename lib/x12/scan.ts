/**
 * Character-level pieces of the 271 reader (and of the reference tokenizer under test/support): ISA delimiter discovery,
 * whitespace and segment-id tests done on char codes in place, and interned segment ids.
 */
/** The four delimiters of an interchange, from its ISA. */
export interface Delimiters {
  element: string;
  /** ISA16. */
  component: string;
  /** ISA11 when it is a separator (5010+); null for 4010 ("U") or when it collides with another delimiter. */
  repetition: string | null;
  segment: string;
}

const BOM = 0xfeff;

export function isWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 11 || code === 12;
}

function isAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Whether text[start, end) is 2–3 characters of A–Z/0–9, read in place. */
export function isSegmentIdAt(text: string, start: number, end: number): boolean {
  const length = end - start;
  if (length < 2 || length > 3) return false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90))) return false;
  }
  return true;
}

export interface IsaHeader {
  delimiters: Delimiters;
  /** Offset just past the ISA's segment terminator. */
  end: number;
  /** Offsets of the 16 element separators; ISA16 is the one character after the last. */
  cuts: number[];
}

/** Where a reply's first interchange starts, with its delimiters, or why there is none. */
export type InterchangeStart =
  | { ok: true; first: number; header: IsaHeader; codes: Uint16Array }
  | { ok: false; error: { message: string; offset: number } };

/**
 * Skips a BOM and leading whitespace, finds the first ISA and reads it (text before it is a
 * warning). `codes` is codesOf(text): scratch, for the caller to read before anything else calls
 * codesOf.
 */
export function startInterchange(text: string, warnings: string[]): InterchangeStart {
  const length = text.length;
  let pos = 0;
  if (length > 0 && text.charCodeAt(0) === BOM) pos = 1;
  while (pos < length && isWhitespace(text.charCodeAt(pos))) pos++;
  const first = text.indexOf('ISA', pos);
  if (first < 0) return { ok: false, error: { message: 'no ISA segment found', offset: pos } };
  if (first > pos) warnings.push(`offset ${pos}: ${first - pos} characters before ISA ignored`);
  const codes = codesOf(text);
  const header = readIsa(text, codes, first, warnings);
  if (typeof header === 'string') return { ok: false, error: { message: header, offset: first } };
  return { ok: true, first, header, codes };
}

/**
 * Reads the ISA at `start` (which points at "ISA"); a string is an error message. `codes` is
 * codesOf(text), read here only while the call lasts.
 */
export function readIsa(text: string, codes: Uint16Array, start: number, warnings: string[]): IsaHeader | string {
  const length = text.length;
  if (start + 3 >= length) return 'interchange header truncated';
  const elementCode = codes[start + 3]!;
  if (isAlphanumeric(elementCode) || isWhitespace(elementCode)) return 'ISA element separator is not a delimiter';
  const element = text[start + 3]!;
  let at = start + 3;
  const cuts: number[] = [at];
  // ISA has 16 elements, so 16 separators; the first is at start + 3.
  for (let i = at + 1; i < length; i++) {
    if (codes[i] !== elementCode) continue;
    at = i;
    if (cuts.push(i) === 16) break;
  }
  if (cuts.length < 16) return 'interchange header truncated';
  // After the 16th separator: ISA16 (one char), then the segment terminator.
  const component = text[at + 1];
  const segment = text[at + 2];
  if (component === undefined || segment === undefined) return 'interchange header truncated';
  if (at - start !== 103) warnings.push(`offset ${start}: ISA is not fixed-width (${at - start + 3} characters)`);
  if (component === element || component === segment || segment === element) {
    return 'ISA delimiters are not distinct';
  }
  const isa11 = text.slice(cuts[10]! + 1, cuts[11]);
  let repetition: string | null = null;
  if (isa11.length === 1 && !isAlphanumeric(isa11.charCodeAt(0)) && !isWhitespace(isa11.charCodeAt(0))) {
    if (isa11 === component) {
      warnings.push(`offset ${start}: ISA11 repetition separator equals ISA16; treated as component separator`);
    } else if (isa11 === element || isa11 === segment) {
      warnings.push(`offset ${start}: ISA11 repetition separator collides with a delimiter; ignored`);
    } else {
      repetition = isa11;
    }
  }
  return { delimiters: { element, component, repetition, segment }, end: at + 3, cuts };
}


/**
 * The input's UTF-16 code units in a typed array. Indexing one costs a fraction of charCodeAt
 * (which re-checks the string's representation on every call), and reading characters is most
 * of what parsing does. The array is shared scratch: valid only until the next call, so callers
 * read from it synchronously and never keep it.
 */
export function codesOf(text: string): Uint16Array {
  const length = text.length;
  if (length > scratchCodes.length) {
    // Grown to fit ordinary replies; a huge one gets its own array instead of pinning memory.
    if (length > MAX_SCRATCH) return fill(new Uint16Array(length), text);
    let size = scratchCodes.length;
    while (size < length) size *= 2;
    scratchBytes = Buffer.allocUnsafeSlow(size * 2) as Buffer & Ucs2Writer;
    scratchCodes = new Uint16Array(scratchBytes.buffer, scratchBytes.byteOffset, size);
  }
  if (!LITTLE_ENDIAN) fill(scratchCodes, text);
  else if (HAS_UCS2_WRITE) scratchBytes.ucs2Write(text, 0);
  else scratchBytes.write(text, 0, 'utf16le');
  return scratchCodes;
}

const MAX_SCRATCH = 1 << 20;
/** UTF-16LE is what ucs2Write writes; Uint16Array reads in the platform's order (little on x86 and arm64). */
const LITTLE_ENDIAN = new Uint16Array(new Uint8Array([1, 0]).buffer)[0] === 1;
/**
 * Buffer's encoding-specific writer, the one `write(text, 0, 'utf16le')` dispatches to after
 * argument parsing that costs as much as the copy of a 1 KB reply. Node defines it on every Buffer
 * but @types/node does not declare it; without it, codesOf uses write().
 */
interface Ucs2Writer {
  ucs2Write(text: string, offset: number): number;
}
let scratchBytes = Buffer.allocUnsafeSlow(8192) as Buffer & Ucs2Writer;
const HAS_UCS2_WRITE = typeof scratchBytes.ucs2Write === 'function';
let scratchCodes = new Uint16Array(scratchBytes.buffer, scratchBytes.byteOffset, 4096);

function fill(codes: Uint16Array, text: string): Uint16Array {
  for (let i = 0; i < text.length; i++) codes[i] = text.charCodeAt(i);
  return codes;
}

/*
 * In-place element reads over codesOf output, for a segment at codes[start, stop) whose element
 * separator is `separator`: element n (n >= 1) runs from just after the n-th separator to the next
 * one (or stop), and an element the segment does not reach reads as ''.
 */

/** Offset of element n's first character; -1 when the segment has fewer than n separators. */
export function elementStart(codes: Uint16Array, start: number, stop: number, separator: number, n: number): number {
  let seen = 0;
  for (let i = start; i < stop; i++) if (codes[i] === separator && ++seen === n) return i + 1;
  return -1;
}

/** Offset just past the element that begins at `from` (-1 reads as an absent element: -1). */
export function elementEnd(codes: Uint16Array, from: number, stop: number, separator: number): number {
  if (from < 0) return -1;
  let i = from;
  while (i < stop && codes[i] !== separator) i++;
  return i;
}

/** Whether codes[from, to) is exactly `value` (from = to = -1 is the empty element). */
export function codesAre(codes: Uint16Array, from: number, to: number, value: string): boolean {
  const length = value.length;
  if (to - from !== length) return false;
  for (let i = 0; i < length; i++) if (codes[from + i] !== value.charCodeAt(i)) return false;
  return true;
}

/** Whether codes[a, aEnd) and codes[b, bEnd) hold the same characters. */
export function sameCodes(codes: Uint16Array, a: number, aEnd: number, b: number, bEnd: number): boolean {
  const length = aEnd - a;
  if (bEnd - b !== length) return false;
  for (let i = 0; i < length; i++) if (codes[a + i] !== codes[b + i]) return false;
  return true;
}

/** Whether codes[from, to) is exactly String(value) for a count value >= 0 (no sign, no leading zero). */
export function countIsAt(codes: Uint16Array, from: number, to: number, value: number): boolean {
  const length = to - from;
  if (length <= 0 || length > 15 || (length > 1 && codes[from] === 48)) return false;
  let total = 0;
  for (let i = from; i < to; i++) {
    const c = codes[i]! - 48;
    if (c < 0 || c > 9) return false;
    total = total * 10 + c;
  }
  return total === value;
}
