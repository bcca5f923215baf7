/**
 * Lossless X12 tokenizer (docs/eligibility.md#how-the-271-is-read): text → segments. Each ISA
 * declares the delimiters of its interchange (isa.ts). Whitespace between segments and trailing
 * blanks before a terminator are layout, not data. Malformed input never throws: defects are
 * warnings, and only input with no usable ISA is a failure. Warnings carry positions and counts
 * only, never element values (they may be patient data).
 */
import { isSegmentId, isWhitespace, readIsa, startInterchange } from './isa.js';
import { type Delimiters, SEGMENT, type Segment } from './segment.js';

export type TokenizeResult =
  | { ok: true; segments: Segment[]; warnings: string[] }
  | { ok: false; error: { message: string; offset: number }; warnings: string[] };

export function tokenize(text: string): TokenizeResult {
  const warnings: string[] = [];
  const start = startInterchange(text, warnings);
  if (!start.ok) return { ok: false, error: start.error, warnings };
  let delimiters: Delimiters = start.header.delimiters;
  const segments: Segment[] = [{ id: SEGMENT.interchangeHeader, elements: start.header.elements, position: 1, offset: start.first, delimiters }];
  let pos = start.header.end;

  while (pos < text.length) {
    pos = skipWhitespace(text, pos, delimiters.segment);
    if (pos >= text.length) break;
    const position = segments.length + 1;

    if (text.startsWith(SEGMENT.interchangeHeader, pos)) {
      const next = readIsa(text, pos, warnings);
      if (typeof next === 'string') {
        warnings.push(`segment ${position} (offset ${pos}): ${next}; rest of input ignored`);
        break;
      }
      delimiters = next.delimiters;
      segments.push({ id: SEGMENT.interchangeHeader, elements: next.elements, position, offset: pos, delimiters });
      pos = next.end;
      continue;
    }

    const offset = pos;
    const { elements, terminator } = readElements(text, offset, delimiters);
    if (terminator === text.length) warnings.push(`segment ${position} (offset ${offset}): no segment terminator before end of input`);
    pos = terminator + 1;
    if (elements.length === 1 && elements[0] === '') continue; // empty segment
    if (!isSegmentId(elements[0]!)) warnings.push(`segment ${position} (offset ${offset}): invalid segment id`);
    segments.push({ id: elements[0]!, elements, position, offset, delimiters });
  }
  return { ok: true, segments, warnings };
}

/**
 * One segment from `start`, in one walk over its characters: an element ends at each element
 * separator, the segment at its terminator (or the end of the input). Blanks before the terminator
 * are layout, not part of the last element. Cutting straight from the input costs less than slicing
 * the segment and splitting the slice (npm run bench: docs/benchmarks.md#reading-271-replies).
 */
function readElements(text: string, start: number, delimiters: Delimiters): { elements: string[]; terminator: number } {
  const separator = delimiters.element.charCodeAt(0);
  const terminatorCode = delimiters.segment.charCodeAt(0);
  const elements: string[] = [];
  let from = start;
  let at = start;
  for (; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === terminatorCode) break;
    if (code !== separator) continue;
    elements.push(text.slice(from, at));
    from = at + 1;
  }
  let stop = at;
  while (stop > from && isWhitespace(text.charCodeAt(stop - 1))) stop--;
  elements.push(text.slice(from, stop));
  return { elements, terminator: at };
}

/** The offset of the first character at or after `pos` that is not layout whitespace (a terminator never is). */
function skipWhitespace(text: string, pos: number, terminator: string): number {
  const terminatorCode = terminator.charCodeAt(0);
  while (pos < text.length) {
    const code = text.charCodeAt(pos);
    if (code === terminatorCode || !isWhitespace(code)) break;
    pos++;
  }
  return pos;
}
