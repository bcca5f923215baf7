import { createHash, timingSafeEqual } from 'node:crypto';
import { TOKEN_STORE_CACHE_SECONDS } from '../config/index.js';

/**
 * Bearer tokens (docs/api.md#tokens). Tokens are never stored: only their SHA-256 hex digests, compared
 * in constant time against the digest of the presented token.
 */

/** The usage plans the stack defines; a client's plan sets its throttle and monthly quota (docs/deployment.md#plans). */
export const PLAN_NAMES = ['standard', 'high'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export interface ClientToken {
  clientId: string;
  tokenSha256: string;
  /** The client's usage plan (`standard` | `high`), set by `token create --plan` (docs/deployment.md#plans). */
  plan?: string;
  /** Id of the client's API Gateway API key (one per client, shared by all its tokens). */
  apiKeyId?: string;
  /** The API key's value: what the authorizer returns as usageIdentifierKey so the gateway meters this client. */
  usageIdentifierKey?: string;
  /**
   * The client's Standard Webhooks signing secret (`whsec_…`, docs/batch.md#webhook-secrets), set on
   * each of its entries by `npm run admin -- webhook-secret create|rotate`.
   */
  webhookSecret?: string;
  /** The secret `webhook-secret rotate` replaced, still signing beside the new one until 24 h after `webhookSecretRotatedAt`. */
  previousWebhookSecret?: string;
  webhookSecretRotatedAt?: string;
}

/** How long a rotated-out webhook secret keeps signing beside the new one (docs/batch.md#webhook-secrets). */
export const WEBHOOK_SECRET_OVERLAP_SECONDS = 24 * 3600;

/**
 * How long a revoked token can keep working in AWS (docs/deployment.md#revocation): the authorizer
 * reads the token store through a cache of TOKEN_STORE_CACHE_SECONDS, and API Gateway caches each
 * authorizer answer for AUTHORIZER_CACHE_SECONDS, so the worst case is their sum.
 */
export const AUTHORIZER_CACHE_SECONDS = 240;
export const REVOCATION_SECONDS = TOKEN_STORE_CACHE_SECONDS + AUTHORIZER_CACHE_SECONDS;

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

const DIGEST = /^[0-9a-f]{64}$/;

const OPTIONAL_FIELDS = ['plan', 'apiKeyId', 'usageIdentifierKey', 'webhookSecret', 'previousWebhookSecret', 'webhookSecretRotatedAt'] as const;

/**
 * Parses the Secrets Manager document
 * `{"clients":[{"clientId","tokenSha256","plan"?,"apiKeyId"?,"usageIdentifierKey"?,"webhookSecret"?}]}`; throws when malformed.
 */
export function parseTokenSecret(json: string): ClientToken[] {
  const doc = JSON.parse(json) as { clients?: unknown };
  if (!doc || !Array.isArray(doc.clients)) throw new Error('token secret has no "clients" array');
  return doc.clients.map((entry, index) => {
    const fields = (entry ?? {}) as Record<string, unknown>;
    const { clientId, tokenSha256 } = fields;
    if (typeof clientId !== 'string' || clientId === '' || typeof tokenSha256 !== 'string' || !DIGEST.test(tokenSha256.toLowerCase())) {
      throw new Error(`token secret entry ${index} is malformed`);
    }
    const client: ClientToken = { clientId, tokenSha256: tokenSha256.toLowerCase() };
    for (const name of OPTIONAL_FIELDS) {
      const value = fields[name];
      if (value === undefined) continue;
      if (typeof value !== 'string' || value === '') throw new Error(`token secret entry ${index} has a malformed ${name}`);
      client[name] = value;
    }
    return client;
  });
}

/** Parses the local `API_TOKENS` form `clientId=token,clientId=token`; throws when malformed. */
export function parseTokenList(list: string): ClientToken[] {
  return list
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      const clientId = pair.slice(0, at).trim();
      const token = pair.slice(at + 1).trim();
      if (at <= 0 || !clientId || !token) throw new Error('API_TOKENS must be clientId=token pairs separated by commas');
      return { clientId, tokenSha256: sha256Hex(token) };
    });
}

/** Tokens are printable ASCII without spaces; anything else is malformed before any comparison. */
const TOKEN_SHAPE = /^[\x21-\x7e]{8,512}$/;

/**
 * The stored entry a presented token matches, or undefined. Every stored digest is compared (no
 * early exit), each with timingSafeEqual over equal-length buffers.
 */
export function matchToken(token: string, clients: readonly ClientToken[]): ClientToken | undefined {
  if (!TOKEN_SHAPE.test(token)) return undefined;
  const presented = Buffer.from(sha256Hex(token), 'hex');
  let match: ClientToken | undefined;
  for (const client of clients) {
    const stored = Buffer.from(client.tokenSha256, 'hex');
    if (stored.length === presented.length && timingSafeEqual(stored, presented) && match === undefined) {
      match = client;
    }
  }
  return match;
}

/** Extracts the token from an `Authorization: Bearer <token>` header value. */
export function bearerToken(header: string): string | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1];
}
