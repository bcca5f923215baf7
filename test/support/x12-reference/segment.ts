/** The tokenizer's output model: one segment, its raw elements, and split repetitions/components. */

import type { Delimiters } from '../../../lib/x12/scan.js';

export type { Delimiters };

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
  /** The whole input the segment was read from; the segment is text[offset, stop). */
  readonly text: string;
  /** End of the segment's data (before trailing blanks and the terminator). */
  readonly stop: number;
  /** The delimiters of the interchange the segment belongs to. */
  readonly delimiters: Delimiters;
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

/**
 * A segment that keeps only its place in the input. Most segments of a 271 are never read, and
 * creating element strings is what parsing costs, so elements are cut from the text on first use
 * (and single elements without building the array at all, see `element`).
 */
export class TextSegment implements Segment {
  private cut: string[] | undefined;
  /** Offsets of the element separators inside the segment, found once on first read. */
  private seps: number[] | undefined;
  /** Whether `seps` holds every separator of the segment. */
  private scanned: boolean;
  private split: (string[][] | undefined)[] | undefined;
  private splitDone: boolean;

  constructor(
    readonly id: string,
    readonly position: number,
    readonly offset: number,
    readonly text: string,
    readonly stop: number,
    readonly delimiters: Delimiters,
    /** Given for the ISA, which is read eagerly and never split into parts. */
    elements?: string[],
  ) {
    this.cut = elements;
    this.seps = undefined;
    this.scanned = false;
    this.split = undefined;
    this.splitDone = elements !== undefined;
  }

  get elements(): string[] {
    return (this.cut ??= this.cutElements());
  }

  get parts(): (string[][] | undefined)[] | undefined {
    if (!this.splitDone) {
      this.splitDone = true;
      this.split = this.splitParts();
    }
    return this.split;
  }

  /**
   * Separator offsets known so far, scanning on only as far as element n needs (EB01 of a status
   * row is read, its later elements usually not).
   */
  private separators(n: number): number[] {
    let seps = this.seps;
    if (seps === undefined) seps = this.seps = [];
    if (this.scanned || seps.length > n) return seps;
    const { text, stop } = this;
    // A char-code walk: elements are short and often empty, where indexOf's call costs more.
    const sep = this.delimiters.element.charCodeAt(0);
    let at = seps.length === 0 ? this.offset : seps[seps.length - 1]! + 1;
    for (; at < stop; at++) {
      if (text.charCodeAt(at) !== sep) continue;
      seps.push(at);
      if (seps.length > n) return seps;
    }
    this.scanned = true;
    return seps;
  }

  /** Element n as raw text ('' when absent), without building the element array. */
  field(n: number): string {
    const cut = this.cut;
    if (cut !== undefined) return cut[n] ?? '';
    if (n === 0) return this.id;
    const seps = this.separators(n);
    if (n > seps.length) return '';
    return this.text.slice(seps[n - 1]! + 1, n < seps.length ? seps[n]! : this.stop);
  }

  /** True when element n is exactly `value`, compared in place. */
  is(n: number, value: string): boolean {
    const cut = this.cut;
    if (cut !== undefined) return (cut[n] ?? '') === value;
    if (n === 0) return this.id === value;
    const seps = this.separators(n);
    if (n > seps.length) return value === '';
    const from = seps[n - 1]! + 1;
    const to = n < seps.length ? seps[n]! : this.stop;
    const length = value.length;
    if (to - from !== length) return false;
    const text = this.text;
    for (let i = 0; i < length; i++) if (text.charCodeAt(from + i) !== value.charCodeAt(i)) return false;
    return true;
  }

  private cutElements(): string[] {
    const seps = this.separators(Infinity);
    const text = this.text;
    const count = seps.length;
    const out: string[] = new Array(count + 1);
    out[0] = this.id;
    for (let n = 1; n < count; n++) out[n] = text.slice(seps[n - 1]! + 1, seps[n]);
    if (count > 0) out[count] = text.slice(seps[count - 1]! + 1, this.stop);
    return out;
  }

  private splitParts(): (string[][] | undefined)[] | undefined {
    const { text, stop, offset } = this;
    const { component, repetition } = this.delimiters;
    // In-place scan bounded by the segment: indexOf would run on to the end of the input when
    // the separator is rare (ISA11 often appears nowhere).
    const c = component.charCodeAt(0);
    const r = repetition === null ? -1 : repetition.charCodeAt(0);
    let found = false;
    for (let i = offset; i < stop; i++) {
      const code = text.charCodeAt(i);
      if (code === c || code === r) {
        found = true;
        break;
      }
    }
    if (!found) return undefined;
    const elements = this.elements;
    let parts: (string[][] | undefined)[] | undefined;
    for (let n = 1; n < elements.length; n++) {
      const value = elements[n]!;
      if (value.indexOf(component) >= 0 || (repetition !== null && value.indexOf(repetition) >= 0)) {
        parts ??= [];
        parts[n] = splitElement(value, repetition, component);
      }
    }
    return parts;
  }
}

/** Element n as raw text ('' when absent). */
export function element(segment: Segment, n: number): string {
  return segment instanceof TextSegment ? segment.field(n) : (segment.elements[n] ?? '');
}

/** True when element n is exactly `value` ('' matches an absent element). */
export function elementIs(segment: Segment, n: number, value: string): boolean {
  return segment instanceof TextSegment ? segment.is(n, value) : (segment.elements[n] ?? '') === value;
}

/** Element n as [repetition][component]; a simple value is [[value]], an absent element []. */
export function values(segment: Segment, n: number): string[][] {
  const split = segment.parts?.[n];
  if (split) return split;
  const raw = element(segment, n);
  return raw === '' ? [] : [[raw]];
}

/** Component c (1-based) of repetition r (0-based) of element n, '' when absent. */
export function component(segment: Segment, n: number, c: number, r = 0): string {
  const split = segment.parts?.[n];
  if (!split) return c === 1 && r === 0 ? element(segment, n) : '';
  return split[r]?.[c - 1] ?? '';
}
