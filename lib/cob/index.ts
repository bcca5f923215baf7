/**
 * Coordination of benefits (docs/api.md#coordination-of-benefits): the request to the clearinghouse's COB
 * check, its answer mapped to one of five COB codes, the mock answers, and the route.
 *
 * @example
 * ```ts
 * import { COB_CODES } from '../cob/index.js';
 * COB_CODES.includes('MemberFoundNoCOB'); // true
 * ```
 */

export { checkCob } from './check.js';
export { mockCob, mockCobResult } from './mock.js';
export { isMedicarePayer, type StediCobRequest } from './request.js';
export { cobRoute, loggedCobCheck } from './route.js';
export type { CobCode } from './types.js';
