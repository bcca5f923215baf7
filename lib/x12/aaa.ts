/** Turns every AAA of a 271 into an AaaRejection (code, X12 description, follow-up action, loop). */
import type { AaaRejection } from '../errors/index.js';
import { followUpAction, rejectReason } from './aaa-codes.js';
import type { Transaction271 } from './loops271.js';
import { element } from './segment.js';

/** One AAA from its AAA03 (reject reason) and AAA04 (follow-up action) and the loop it stood in. */
export function rejection(code: string, action: string, loop: string): AaaRejection {
  return { code, description: rejectReason(code), followUpAction: followUpAction(action), loop };
}

export function rejectionsOf(doc: Transaction271): AaaRejection[] {
  return doc.aaa.map(({ segment, loop }) => rejection(element(segment, 3), element(segment, 4), loop));
}
