/**
 * X12 005010 (docs/eligibility.md#the-270, docs/eligibility.md#reading-the-reply): the vocabulary (service types, AAA codes),
 * the 270 builder, and the one 271 reader (tokenizer, envelope, loop grammar).
 *
 * @example
 * ```ts
 * import { serviceTypeName } from '../x12/index.js';
 * serviceTypeName('30'); // 'Health Benefit Plan Coverage'
 * ```
 */

export { FOLLOW_UP_ACTIONS, knownFollowUp, knownRejectReason } from './aaa-codes.js';
export { rejection } from './aaa.js';
export { insuranceTypeName, quantityQualifierName, timePeriodName } from './benefit-codes.js';
export { build270, controlNumberOfKey } from './build270.js';
export { NM1_NAME_SIZES, cleanElement, x12Name } from './clean.js';
export { readEnvelope } from './envelope.js';
export { readLoops271, type BenefitLoop, type LevelLoop, type Loop, type Transaction271 } from './loops271.js';
export { serviceTypeOfLine } from './procedure-crosswalk.js';
export { errorForRejections, onlyUnavailable } from './rejections.js';
export { SEGMENT, element, repetitions, type Segment } from './segment.js';
export { SERVICE_TYPE_CODES, serviceTypeName } from './service-type-codes.js';
export { tokenize } from './tokenizer.js';
