/**
 * The insurance discovery routes (docs/finding-coverage.md#insurance-discovery) as route functions:
 * POST starts one (the provider's active enrollment first, as for eligibility, for no one payer) and
 * answers 200 with the coverages when the clearinghouse finished at once, else 202 PENDING; GET polls.
 * The MCP tool `discover_insurance` runs the same POST route.
 */
import { authorizeProvider } from '../enrollment/authorize.js';
import type { Route, RouteOutcome } from '../http/route-outcome.js';
import type { Result } from '../errors/index.js';
import type { DiscoveryRequest } from '../validation/schemas.js';
import { pollDiscovery, startDiscovery, type DiscoveryDeps } from './service.js';
import type { DiscoveryAnswer } from './types.js';

/** Where a discovery is polled. */
export const discoveryLocation = (discoveryId: string): string => `/api/insurance-discovery/v1/${encodeURIComponent(discoveryId)}`;

const outcomeOf = (result: Result<DiscoveryAnswer>, pendingStatus: number): RouteOutcome =>
  result.ok
    ? {
        ok: true,
        status: result.value.status === 'COMPLETE' ? 200 : pendingStatus,
        body: result.value,
        log: { discoveryId: result.value.discoveryId, ...(result.value.coverages ? { coverages: result.value.coverages.length } : {}) },
      }
    : result;

/** POST /api/insurance-discovery/v1: 200 COMPLETE with coverages, or 202 PENDING. */
export function discoveryRoute(deps: DiscoveryDeps): Route<DiscoveryRequest> {
  return async ({ body, clientId, requestId }) => {
    const enrolled = await authorizeProvider(await deps.runtime.enrollments(), clientId, body.providerId, undefined);
    if (!enrolled.ok) return enrolled;
    return outcomeOf(await startDiscovery(deps, clientId, body, enrolled.value, requestId), 202);
  };
}

/** GET /api/insurance-discovery/v1/{discoveryId}: 200 with the status (and the coverages once COMPLETE), 404 when not the caller's. */
export async function discoveryStatus(deps: DiscoveryDeps, clientId: string, discoveryId: string, requestId: string): Promise<RouteOutcome> {
  return outcomeOf(await pollDiscovery(deps, clientId, discoveryId, requestId), 200);
}
