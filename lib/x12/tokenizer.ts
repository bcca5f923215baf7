/**
 * Lossless X12 tokenizer. Delimiters come from the ISA by counting its element separators (not by fixed
 * offsets, since real files pad ISA06/08 wrongly): the 16th separator is followed by ISA16 (component
 * separator) and then the segment terminator. Values stay strings (leading zeros kept). Malformed input
 * never throws: defects are warnings, and only input with no usable ISA is a failure.
 * Warnings carry positions and counts only, never element values (they may be patient data).
 */
import type { Delimiters, Segment } from './segment.js';

export interface TokenizeSuccess {
  ok: true;
  /** Delimiters of the first interchange (later ISAs may declare others; they are honoured). */
  delimiters: Delimiters;
  segments: Segment[];
  warnings: string[];
}

export interface TokenizeFailure {
  ok: false;
  error: { message: string; offset: number };
  warnings: string[];
}

export type TokenizeResult = TokenizeSuccess | TokenizeFailure;

const BOM = 0xfeff;

function isWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 11 || code === 12;
}

function isAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isSegmentId(id: string): boolean {
  if (id.length < 2 || id.length > 3) return false;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90))) return false;
  }
  return true;
}

interface IsaHeader {
  delimiters: Delimiters;
  /** Offset just past the ISA's segment terminator. */
  end: number;
  elements: string[];
}

/** Reads the ISA at `start` (which points at "ISA"); a string is an error message. */
function readIsa(text: string, start: number, warnings: string[]): IsaHeader | string {
  const element = text[start + 3];
  if (element === undefined) return 'interchange header truncated';
  const elementCode = element.charCodeAt(0);
  if (isAlphanumeric(elementCode) || isWhitespace(elementCode)) return 'ISA element separator is not a delimiter';
  let at = start + 3;
  const cuts: number[] = [at];
  // ISA has 16 elements, so 16 separators; the first is at start + 3.
  for (let n = 1; n < 16; n++) {
    at = text.indexOf(element, at + 1);
    if (at < 0) return 'interchange header truncated';
    cuts.push(at);
  }
  // After the 16th separator: ISA16 (one char), then the segment terminator.
  const component = text[at + 1];
  const segment = text[at + 2];
  if (component === undefined || segment === undefined) return 'interchange header truncated';
  const elements: string[] = ['ISA'];
  for (let n = 0; n < 15; n++) elements.push(text.slice(cuts[n]! + 1, cuts[n + 1]));
  elements.push(component);
  if (at - start !== 103) warnings.push(`offset ${start}: ISA is not fixed-width (${at - start + 3} characters)`);
  if (component === element || component === segment || segment === element) {
    return 'ISA delimiters are not distinct';
  }
  const isa11 = elements[11]!;
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
  return { delimiters: { element, component, repetition, segment }, end: at + 3, elements };
}

/** Splits one element into [repetition][component]; only called when a separator occurs in it. */
function splitElement(raw: string, repetition: string | null, component: string): string[][] {
  const reps = repetition !== null && raw.indexOf(repetition) >= 0 ? raw.split(repetition) : [raw];
  const out: string[][] = new Array(reps.length);
  for (let r = 0; r < reps.length; r++) {
    const rep = reps[r]!;
    out[r] = rep.indexOf(component) >= 0 ? rep.split(component) : [rep];
  }
  return out;
}

export function tokenize(text: string): TokenizeResult {
  const warnings: string[] = [];
  const length = text.length;
  let pos = 0;
  if (length > 0 && text.charCodeAt(0) === BOM) pos = 1;
  while (pos < length && isWhitespace(text.charCodeAt(pos))) pos++;
  const first = text.indexOf('ISA', pos);
  if (first < 0) return { ok: false, error: { message: 'no ISA segment found', offset: pos }, warnings };
  if (first > pos) warnings.push(`offset ${pos}: ${first - pos} characters before ISA ignored`);

  const header = readIsa(text, first, warnings);
  if (typeof header === 'string') return { ok: false, error: { message: header, offset: first }, warnings };

  const segments: Segment[] = [];
  let delimiters = header.delimiters;
  const firstDelimiters = delimiters;
  segments.push({ id: 'ISA', elements: header.elements, parts: undefined, position: 1, offset: first });
  pos = header.end;

  while (pos < length) {
    let code = text.charCodeAt(pos);
    // Whitespace (CR/LF, indentation) between segments is not data.
    while (isWhitespace(code) && text[pos] !== delimiters.segment) {
      pos++;
      if (pos >= length) break;
      code = text.charCodeAt(pos);
    }
    if (pos >= length) break;
    const start = pos;

    if (code === 73 && text.startsWith('ISA', pos)) {
      const next = readIsa(text, pos, warnings);
      if (typeof next === 'string') {
        warnings.push(`segment ${segments.length + 1} (offset ${pos}): ${next}; rest of input ignored`);
        break;
      }
      delimiters = next.delimiters;
      segments.push({ id: 'ISA', elements: next.elements, parts: undefined, position: segments.length + 1, offset: start });
      pos = next.end;
      continue;
    }

    let end = text.indexOf(delimiters.segment, pos);
    if (end < 0) {
      end = length;
      warnings.push(`segment ${segments.length + 1} (offset ${start}): no segment terminator before end of input`);
    }
    pos = end + 1;
    // Trailing blanks before the terminator are layout, not data (CR-terminated files pad lines).
    let stop = end;
    while (stop > start && isWhitespace(text.charCodeAt(stop - 1))) stop--;
    if (stop === start) continue; // empty segment
    const raw = text.slice(start, stop);
    const elements = raw.split(delimiters.element);
    const id = elements[0]!;
    const position = segments.length + 1;
    if (!isSegmentId(id)) warnings.push(`segment ${position} (offset ${start}): invalid segment id`);

    let parts: (string[][] | undefined)[] | undefined;
    const rep = delimiters.repetition;
    if (raw.indexOf(delimiters.component) >= 0 || (rep !== null && raw.indexOf(rep) >= 0)) {
      for (let n = 1; n < elements.length; n++) {
        const value = elements[n]!;
        if (value.indexOf(delimiters.component) >= 0 || (rep !== null && value.indexOf(rep) >= 0)) {
          parts ??= [];
          parts[n] = splitElement(value, rep, delimiters.component);
        }
      }
    }
    segments.push({ id, elements, parts, position, offset: start });
  }

  return { ok: true, delimiters: firstDelimiters, segments, warnings };
}
