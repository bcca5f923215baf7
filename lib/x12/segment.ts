/** The tokenizer's output model: one segment, its raw elements, and split repetitions/components. */

export interface Delimiters {
  element: string;
  /** ISA16. */
  component: string;
  /** ISA11 when it is a separator (5010+); null for 4010 ("U") or when it collides with another delimiter. */
  repetition: string | null;
  segment: string;
}

export interface Segment {
  /** Segment id ("NM1"). */
  id: string;
  /** Raw element texts, lossless: elements[0] is the id, elements[n] is element nn (EB03 = elements[3]). */
  elements: string[];
  /**
   * Sparse: only elements that contain a repetition or component separator are split, as
   * parts[n][repetition][component]. Absent means the element is one simple value.
   */
  parts: (string[][] | undefined)[] | undefined;
  /** 1-based ordinal of the segment in the input. */
  position: number;
  /** UTF-16 code-unit offset of the segment's first character in the input. */
  offset: number;
}

/** Element n as raw text ('' when absent). */
export function element(segment: Segment, n: number): string {
  return segment.elements[n] ?? '';
}

/** Element n as [repetition][component]; a simple value is [[value]], an absent element []. */
export function values(segment: Segment, n: number): string[][] {
  const split = segment.parts?.[n];
  if (split) return split;
  const raw = segment.elements[n];
  return raw === undefined || raw === '' ? [] : [[raw]];
}

/** Component c (1-based) of repetition r (0-based) of element n, '' when absent. */
export function component(segment: Segment, n: number, c: number, r = 0): string {
  const split = segment.parts?.[n];
  if (!split) return c === 1 && r === 0 ? (segment.elements[n] ?? '') : '';
  return split[r]?.[c - 1] ?? '';
}
