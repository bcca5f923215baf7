/** Turns every AAA of a 271 into an AaaRejection (code, X12 description, follow-up action, loop). */
import type { AaaRejection } from '../errors/index.js';
import { followUpAction, rejectReason } from './aaa-codes.js';
import type { Transaction271 } from './loops271.js';
import { element, type Segment } from './segment.js';

export function rejectionsOf(doc: Transaction271): AaaRejection[] {
  return rejectionsOfAaa(doc.aaa);
}

/** The same for a bare list of AAA segments with their loops (the 271 fast path has no loop model). */
export function rejectionsOfAaa(aaa: readonly { segment: Segment; loop: string }[]): AaaRejection[] {
  const out: AaaRejection[] = new Array(aaa.length);
  for (let i = 0; i < aaa.length; i++) {
    const { segment, loop } = aaa[i]!;
    const code = element(segment, 3);
    out[i] = { code, description: rejectReason(code), followUpAction: followUpAction(element(segment, 4)), loop };
  }
  return out;
}
