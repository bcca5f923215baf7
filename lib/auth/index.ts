/**
 * Bearer tokens and the authorizer's decision (docs/api.md#tokens). Tokens are kept only as SHA-256
 * digests and compared in constant time; `decide` maps an `Authorization` header to 401, 403 or a client.
 *
 * @example
 * ```ts
 * import { decide, sha256Hex } from '../auth/index.js';
 * const clients = [{ clientId: 'acme', tokenSha256: sha256Hex('secret-token') }];
 * decide('Bearer secret-token', clients); // { kind: 'allow', client: { clientId: 'acme', … } }
 * decide(undefined, clients); // { kind: 'unauthorized' }
 * ```
 */

export { decide, loadClients, webhookSecretsOf } from './authorizer.js';
export { allowPolicy, denyPolicy } from './policy.js';
export {
  AUTHORIZER_CACHE_SECONDS,
  PLAN_NAMES,
  REVOCATION_SECONDS,
  WEBHOOK_SECRET_OVERLAP_SECONDS,
  parseTokenList,
  parseTokenSecret,
  sha256Hex,
  type ClientToken,
  type PlanName,
} from './tokens.js';
