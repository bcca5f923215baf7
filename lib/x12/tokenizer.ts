/**
 * Lossless X12 tokenizer. Delimiters come from the ISA by counting its element separators (not by fixed
 * offsets, since real files pad ISA06/08 wrongly): the 16th separator is followed by ISA16 (component
 * separator) and then the segment terminator. Values stay strings (leading zeros kept). Malformed input
 * never throws: defects are warnings, and only input with no usable ISA is a failure.
 * Warnings carry positions and counts only, never element values (they may be patient data).
 */
import { idAt, isaElements, isSegmentIdAt, isWhitespace, readIsa, startInterchange } from './scan.js';
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
