/**
 * Finding the coverage (docs/finding-coverage.md): insurance discovery (start, poll, each coverage answered
 * by the one 271 reader, a per-client daily cap), `discoverOnInactive` around the eligibility route, and
 * the Medicare number lookup.
 *
 * @example
 * ```ts
 * import { withDiscoverOnInactive } from '../discovery/index.js';
 * // The eligibility route, with a discovery started when the check finds nothing and the body asked for one.
 * const route = withDiscoverOnInactive({ runtime, store }, eligibilityRoute(runtime));
 * ```
 */

export { discoveryHandler } from './http.js';
export { mbiRoute } from './mbi.js';
export { withDiscoverOnInactive } from './on-inactive.js';
export { discoveryRoute } from './route.js';
export type { DiscoveryStore } from './store.js';
export { discoveryStoreFromEnv } from './adapters/table-from-env.js';
