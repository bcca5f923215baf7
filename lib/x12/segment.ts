/**
 * One X12 segment as the tokenizer gives it, and the reads done on it: an element as text, an
 * element's repetitions and components. Values stay strings (leading zeros kept).
 */

/** The four delimiters of an interchange, as its ISA declares them (lib/x12/isa.ts). */
export interface Delimiters {
  element: string;
  /** ISA16. */
  component: string;
  /** ISA11 when it is a separator (5010+); null for 4010 ("U") or when it collides with another delimiter. */
  repetition: string | null;
  segment: string;
}

export interface Segment {
  /** Segment id ("NM1"); elements[0]. */
  id: string;
  /** Raw element texts: elements[n] is element n (EB03 = elements[3]). */
  elements: readonly string[];
  /** 1-based ordinal of the segment in the input. */
  position: number;
  /** UTF-16 offset of the segment's first character in the input. */
  offset: number;
  /** The delimiters of the interchange the segment belongs to. */
  delimiters: Delimiters;
}

/** Every segment id the 271 reader and the answer name, by name (the one list: neither quotes a segment id of its own). */
export const SEGMENT = {
  interchangeHeader: 'ISA',
  interchangeTrailer: 'IEA',
  groupHeader: 'GS',
  groupTrailer: 'GE',
  transactionHeader: 'ST',
  transactionTrailer: 'SE',
  hierarchicalLevel: 'HL',
  name: 'NM1',
  benefit: 'EB',
  loopStart: 'LS',
  loopEnd: 'LE',
  rejection: 'AAA',
  date: 'DTP',
  message: 'MSG',
  reference: 'REF',
  demographics: 'DMG',
  insured: 'INS',
  trace: 'TRN',
  address: 'N3',
  geographicLocation: 'N4',
  contact: 'PER',
  provider: 'PRV',
  diagnosis: 'HI',
  militaryPersonnel: 'MPI',
  delivery: 'HSD',
  additionalInformation: 'III',
} as const;

/** A segment id of the SEGMENT list. */
export type SegmentId = (typeof SEGMENT)[keyof typeof SEGMENT];

/** Element n as raw text ('' when absent). */
export function element(segment: Segment, n: number): string {
  return segment.elements[n] ?? '';
}

/** Element n's repetitions (split on the repetition separator, when the interchange has one). */
export function repetitions(segment: Segment, n: number): string[] {
  const value = element(segment, n);
  const separator = segment.delimiters.repetition;
  return separator === null ? [value] : value.split(separator);
}
