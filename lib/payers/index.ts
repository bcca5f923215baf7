/**
 * The payer directory (docs/api.md#payer-directory): the clearinghouse's payer search cached per
 * container, the `PAYER_NOT_SUPPORTED` gate in front of paid checks, and `GET /api/payers`.
 *
 * @example
 * ```ts
 * import { payersHandler } from '../payers/index.js';
 * export const handler = payersHandler(); // GET /api/payers, GET /api/payers/{payerId}
 * ```
 */

export { payerDirectory, type PayerDirectory } from './directory.js';
export { payerFromStedi } from './from-stedi.js';
export { payerNotSupported } from './gate.js';
export { payersHandler } from './http.js';
export { payerSearchRoute, type PayerSearchRoute } from './route.js';
export { PAYER_ID_SCHEMA, PAYER_SEARCH_SCHEMA } from './search-params.js';
export type { DirectoryPage, DirectorySearch } from './types.js';
