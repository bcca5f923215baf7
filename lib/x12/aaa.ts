/** Turns every AAA of a 271 into an AaaRejection (code, X12 description, follow-up action, loop). */
import type { AaaRejection } from '../errors/index.js';
import { followUpAction, rejectReason } from './aaa-codes.js';
import type { Transaction271 } from './loops271.js';
import { element } from './segment.js';

export function rejectionsOf(doc: Transaction271): AaaRejection[] {
  return doc.aaa.map(({ segment, loop }) => {
    const code = element(segment, 3);
    return { code, description: rejectReason(code), followUpAction: followUpAction(element(segment, 4)), loop };
  });
}
