/** An AAA of a 271 as an AaaRejection (code, X12 description, follow-up action, loop). */
import type { AaaRejection } from '../errors/index.js';
import { followUpAction, rejectReason } from './aaa-codes.js';

/** One AAA from its AAA03 (reject reason) and AAA04 (follow-up action) and the loop it stood in. */
export function rejection(code: string, action: string, loop: string): AaaRejection {
  return { code, description: rejectReason(code), followUpAction: followUpAction(action), loop };
}
