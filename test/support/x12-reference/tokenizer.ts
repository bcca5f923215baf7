/**
 * Lossless X12 tokenizer. Delimiters come from the ISA by counting its element separators (not by fixed
 * offsets, since real files pad ISA06/08 wrongly): the 16th separator is followed by ISA16 (component
 * separator) and then the segment terminator. Values stay strings (leading zeros kept). Malformed input
 * never throws: defects are warnings, and only input with no usable ISA is a failure.
 * Warnings carry positions and counts only, never element values (they may be patient data).
 */
import { isSegmentIdAt, isWhitespace, readIsa, startInterchange, type IsaHeader } from '../../../lib/x12/scan.js';
import { TextSegment, type Delimiters, type Segment } from './segment.js';

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

export function tokenize(text: string): TokenizeResult {
  const warnings: string[] = [];
  const length = text.length;
  const start = startInterchange(text, warnings);
  if (!start.ok) return { ok: false, error: start.error, warnings };
  // Only readIsa reads the code array, during this call; segments read the text itself.
  const { first, header, codes } = start;

  const segments: Segment[] = [];
  let delimiters = header.delimiters;
  const firstDelimiters = delimiters;
  segments.push(new TextSegment('ISA', 1, first, text, header.end - 1, delimiters, isaElements(text, header)));
  let pos = header.end;
  let terminator = delimiters.segment;
  let terminatorCode = terminator.charCodeAt(0);
  let separator = delimiters.element;

  while (pos < length) {
    let code = text.charCodeAt(pos);
    // Whitespace (CR/LF, indentation) between segments is not data.
    while (code !== terminatorCode && isWhitespace(code)) {
      pos++;
      if (pos >= length) break;
      code = text.charCodeAt(pos);
    }
    if (pos >= length) break;
    const start = pos;

    if (code === 73 && text.startsWith('ISA', pos)) {
      const next = readIsa(text, codes, pos, warnings);
      if (typeof next === 'string') {
        warnings.push(`segment ${segments.length + 1} (offset ${pos}): ${next}; rest of input ignored`);
        break;
      }
      delimiters = next.delimiters;
      terminator = delimiters.segment;
      terminatorCode = terminator.charCodeAt(0);
      separator = delimiters.element;
      segments.push(new TextSegment('ISA', segments.length + 1, start, text, next.end - 1, delimiters, isaElements(text, next)));
      pos = next.end;
      continue;
    }

    let end = text.indexOf(terminator, pos);
    if (end < 0) {
      end = length;
      warnings.push(`segment ${segments.length + 1} (offset ${start}): no segment terminator before end of input`);
    }
    pos = end + 1;
    // Trailing blanks before the terminator are layout, not data (CR-terminated files pad lines).
    let stop = end;
    while (stop > start && isWhitespace(text.charCodeAt(stop - 1))) stop--;
    if (stop === start) continue; // empty segment
    let idEnd = text.indexOf(separator, start);
    if (idEnd < 0 || idEnd > stop) idEnd = stop;
    const position = segments.length + 1;
    if (!isSegmentIdAt(text, start, idEnd)) warnings.push(`segment ${position} (offset ${start}): invalid segment id`);
    segments.push(new TextSegment(idAt(text, start, idEnd), position, start, text, stop, delimiters));
  }

  return { ok: true, delimiters: firstDelimiters, segments, warnings };
}

/**
 * The ids the 271 reader switches on, returned as shared literals so that no id string is created
 * for them and later comparisons are cheap; other ids are cut from the text.
 */
export function idAt(text: string, start: number, end: number): string {
  const length = end - start;
  if (length === 2) {
    const a = text.charCodeAt(start);
    const b = text.charCodeAt(start + 1);
    switch (a) {
      case 69: // E
        if (b === 66) return 'EB';
        break;
      case 71: // G
        if (b === 83) return 'GS';
        if (b === 69) return 'GE';
        break;
      case 72: // H
        if (b === 76) return 'HL';
        if (b === 73) return 'HI';
        break;
      case 76: // L
        if (b === 83) return 'LS';
        if (b === 69) return 'LE';
        break;
      case 78: // N
        if (b === 51) return 'N3';
        if (b === 52) return 'N4';
        break;
      case 83: // S
        if (b === 84) return 'ST';
        if (b === 69) return 'SE';
        break;
    }
  } else if (length === 3) {
    const a = text.charCodeAt(start);
    const b = text.charCodeAt(start + 1);
    const c = text.charCodeAt(start + 2);
    switch (a) {
      case 65: // A
        if (b === 65 && c === 65) return 'AAA';
        break;
      case 66: // B
        if (b === 72 && c === 84) return 'BHT';
        break;
      case 68: // D
        if (b === 84 && c === 80) return 'DTP';
        if (b === 77 && c === 71) return 'DMG';
        break;
      case 72: // H
        if (b === 83 && c === 68) return 'HSD';
        break;
      case 73: // I
        if (b === 69 && c === 65) return 'IEA';
        if (b === 73 && c === 73) return 'III';
        if (b === 78 && c === 83) return 'INS';
        break;
      case 77: // M
        if (b === 83 && c === 71) return 'MSG';
        if (b === 80 && c === 73) return 'MPI';
        break;
      case 78: // N
        if (b === 77 && c === 49) return 'NM1';
        break;
      case 80: // P
        if (b === 69 && c === 82) return 'PER';
        if (b === 82 && c === 86) return 'PRV';
        break;
      case 82: // R
        if (b === 69 && c === 70) return 'REF';
        break;
      case 84: // T
        if (b === 82 && c === 78) return 'TRN';
        break;
    }
  }
  return text.slice(start, end);
}


/** The ISA's element texts (elements[0] = "ISA", elements[16] = ISA16). */
export function isaElements(text: string, header: IsaHeader): string[] {
  const cuts = header.cuts;
  const elements: string[] = new Array(17);
  elements[0] = 'ISA';
  for (let n = 0; n < 15; n++) elements[n + 1] = text.slice(cuts[n]! + 1, cuts[n + 1]);
  elements[16] = header.delimiters.component;
  return elements;
}

