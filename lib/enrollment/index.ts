/**
 * Provider enrollment (docs/api.md#enrollment): the records, the NPI check digit, and the check that a
 * provider is enrolled for the calling client (and payer). The store is a port; DynamoDB is an adapter.
 *
 * @example
 * ```ts
 * import { isValidNpi } from '../enrollment/index.js';
 * isValidNpi('1234567893'); // true: Luhn over 80840 + the first nine digits
 * ```
 */

export { authorizeProvider } from './authorize.js';
export { isValidNpi } from './npi.js';
export type { Enrollment, EnrollmentStore } from './types.js';
export { validateEnrollment } from './validate.js';
