/**
 * The interchange header (docs/eligibility.md#how-the-271-is-read): where the first ISA starts and
 * which delimiters it declares. Delimiters come from counting the ISA's element separators, not
 * from fixed offsets, since real files pad ISA06/08 wrongly: the 16th separator is followed by ISA16
 * (the component separator) and then the segment terminator.
 */
import { type Delimiters, SEGMENT } from './segment.js';

export interface IsaHeader {
  delimiters: Delimiters;
  /** Offset just past the ISA's segment terminator. */
  end: number;
  /** The ISA's elements: [0] is "ISA", [16] is ISA16. */
  elements: string[];
}

/** Where a reply's first interchange starts, with its header, or why there is none. */
export type InterchangeStart = { ok: true; first: number; header: IsaHeader } | { ok: false; error: { message: string; offset: number } };

const BOM = 0xfeff;
const ISA_SEPARATORS = 16;
/** Characters from "ISA" to its 16th separator in a fixed-width ISA. */
const FIXED_WIDTH = 103;

export function isWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 11 || code === 12;
}

function isAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Whether id is a segment id: 2–3 characters of A–Z/0–9. */
export function isSegmentId(id: string): boolean {
  if (id.length < 2 || id.length > 3) return false;
  for (let i = 0; i < id.length; i++) {
    const code = id.charCodeAt(i);
    if (!((code >= 48 && code <= 57) || (code >= 65 && code <= 90))) return false;
  }
  return true;
}

/** Skips a BOM and leading whitespace, finds the first ISA and reads it (text before it is a warning). */
export function startInterchange(text: string, warnings: string[]): InterchangeStart {
  let pos = 0;
  if (text.charCodeAt(0) === BOM) pos = 1;
  while (pos < text.length && isWhitespace(text.charCodeAt(pos))) pos++;
  const first = text.indexOf(SEGMENT.interchangeHeader, pos);
  if (first < 0) return { ok: false, error: { message: 'no ISA segment found', offset: pos } };
  if (first > pos) warnings.push(`offset ${pos}: ${first - pos} characters before ISA ignored`);
  const header = readIsa(text, first, warnings);
  if (typeof header === 'string') return { ok: false, error: { message: header, offset: first } };
  return { ok: true, first, header };
}

/** Reads the ISA at `start` (which points at "ISA"); a string is an error message. */
export function readIsa(text: string, start: number, warnings: string[]): IsaHeader | string {
  if (start + 3 >= text.length) return 'interchange header truncated';
  const element = text[start + 3]!;
  if (isAlphanumeric(element.charCodeAt(0)) || isWhitespace(element.charCodeAt(0))) return 'ISA element separator is not a delimiter';
  const cuts: number[] = [start + 3];
  for (let at = text.indexOf(element, start + 4); at >= 0 && cuts.length < ISA_SEPARATORS; at = text.indexOf(element, at + 1)) cuts.push(at);
  if (cuts.length < ISA_SEPARATORS) return 'interchange header truncated';
  const last = cuts[ISA_SEPARATORS - 1]!;
  // After the 16th separator: ISA16 (one char), then the segment terminator.
  const component = text[last + 1];
  const segment = text[last + 2];
  if (component === undefined || segment === undefined) return 'interchange header truncated';
  if (last - start !== FIXED_WIDTH) warnings.push(`offset ${start}: ISA is not fixed-width (${last - start + 3} characters)`);
  if (component === element || component === segment || segment === element) return 'ISA delimiters are not distinct';
  const elements: string[] = [SEGMENT.interchangeHeader];
  for (let n = 1; n < ISA_SEPARATORS; n++) elements.push(text.slice(cuts[n - 1]! + 1, cuts[n]));
  elements.push(component);
  return {
    delimiters: { element, component, repetition: repetitionOf(elements[11]!, element, component, segment, start, warnings), segment },
    end: last + 3,
    elements,
  };
}

/** ISA11 as the repetition separator, when it is one (a single non-alphanumeric character distinct from the others). */
function repetitionOf(isa11: string, element: string, component: string, segment: string, start: number, warnings: string[]): string | null {
  if (isa11.length !== 1 || isAlphanumeric(isa11.charCodeAt(0)) || isWhitespace(isa11.charCodeAt(0))) return null;
  if (isa11 === component) {
    warnings.push(`offset ${start}: ISA11 repetition separator equals ISA16; treated as component separator`);
    return null;
  }
  if (isa11 === element || isa11 === segment) {
    warnings.push(`offset ${start}: ISA11 repetition separator collides with a delimiter; ignored`);
    return null;
  }
  return isa11;
}
