import { serviceError } from '../errors/index.js';
import type { RouteOutcome } from '../http/index.js';
import type { PayerDirectory } from './directory.js';
import { hasControlCharacter, PAYER_ID_SCHEMA, readPayerSearch } from './search-params.js';

/**
 * GET /api/payers and GET /api/payers/{payerId} (docs/api.md#payer-directory), as route functions
 * the REST handler and the MCP tool `search_payers` both call.
 */

export type PayerSearchRoute = (params: Record<string, unknown>) => Promise<RouteOutcome>;
export type PayerLookupRoute = (payerId: string) => Promise<RouteOutcome>;

export function payerSearchRoute(directory: PayerDirectory): PayerSearchRoute {
  return async (params) => {
    const search = readPayerSearch(params);
    if (!search.ok) return search;
    const page = await directory.search(search.value);
    return page.ok ? { ok: true, body: page.value } : page;
  };
}

export function payerLookupRoute(directory: PayerDirectory): PayerLookupRoute {
  return async (payerId) => {
    if (payerId.length > PAYER_ID_SCHEMA.maxLength || hasControlCharacter(payerId) || payerId.trim() === '') {
      return {
        ok: false,
        error: serviceError('INVALID_REQUEST', {
          errors: [{ field: 'payerId', message: `must be 1 to ${PAYER_ID_SCHEMA.maxLength} characters without control characters` }],
        }),
      };
    }
    const found = await directory.find(payerId);
    if (!found.ok) return found;
    if (!found.value)
      return { ok: false, error: serviceError('NOT_FOUND', { message: `No payer in the directory has the id ${payerId.trim()}` }), log: { payerId } };
    return { ok: true, body: found.value, log: { payerId: found.value.payerId } };
  };
}
