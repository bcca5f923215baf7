/** The reference reader's AAA list: every AAA of a transaction as an AaaRejection. */
import type { AaaRejection } from '../../../lib/errors/index.js';
import { rejection } from '../../../lib/x12/aaa.js';
import type { Transaction271 } from './loops271.js';
import { element } from './segment.js';

export function rejectionsOf(doc: Transaction271): AaaRejection[] {
  return doc.aaa.map(({ segment, loop }) => rejection(element(segment, 3), element(segment, 4), loop));
}
