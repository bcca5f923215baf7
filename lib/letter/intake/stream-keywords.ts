/**
 * Where a PDF's streams start and end, found once per file by the decompression guard and the structure
 * gate (docs/security.md#pdf-bombs): the position of each `stream` keyword that is not part of
 * `endstream`, and of each `endstream`, both ascending; and the lookup both use to find the first
 * keyword at or after a position.
 */

export interface StreamKeywords {
  /** Position of each `stream` keyword that is not part of `endstream`. */
  streams: number[];
  /** Position of each `endstream` keyword. */
  ends: number[];
}

export function streamKeywords(text: string): StreamKeywords {
  const streams: number[] = [];
  const ends: number[] = [];
  for (let at = text.indexOf('stream'); at >= 0; at = text.indexOf('stream', at + 6)) {
    if (at >= 3 && text.startsWith('end', at - 3)) ends.push(at - 3);
    else streams.push(at);
  }
  return { streams, ends };
}

/** First index in a sorted list whose value is ≥ `value` (the list's length when none is). */
export function lowerBound(list: readonly number[], value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
