import { readSecret, SECRETS } from '../config/secrets.js';
import { bearerToken, matchToken, parseTokenList, parseTokenSecret, type ClientToken } from './tokens.js';

/**
 * The bearer-token decision (docs/runtime.md#authorizer) and where the token digests come from:
 * Secrets Manager in AWS (`API_TOKENS_SECRET_ARN`, cached in memory), `API_TOKENS` locally.
 * When the store cannot be read this throws, so API Gateway answers 500 and caches no denial.
 */

/** No Authorization header → 401; present but unknown or malformed → 403; else the stored entry. */
export type AuthorizerDecision = { kind: 'unauthorized' } | { kind: 'deny' } | { kind: 'allow'; client: ClientToken };

export function decide(authorization: string | undefined, clients: readonly ClientToken[]): AuthorizerDecision {
  if (authorization === undefined || authorization.trim() === '') return { kind: 'unauthorized' };
  const token = bearerToken(authorization);
  const client = token ? matchToken(token, clients) : undefined;
  return client ? { kind: 'allow', client } : { kind: 'deny' };
}

type Env = Record<string, string | undefined>;

let parsed: { source: string; clients: ClientToken[] } | undefined;

/** The known clients. Parsing is memoised on the secret's text, so a rotation is picked up. */
export async function loadClients(env: Env = process.env): Promise<ClientToken[]> {
  const fromSecret = Boolean(env[SECRETS.apiTokens.arnVariable]?.trim());
  const source = await readSecret(SECRETS.apiTokens, env);
  if (source === undefined) throw new Error('no API token store is configured (API_TOKENS_SECRET_ARN or API_TOKENS)');
  const key = `${fromSecret ? 'secret' : 'list'}:${source}`;
  if (parsed?.source !== key) {
    parsed = { source: key, clients: fromSecret ? parseTokenSecret(source) : parseTokenList(source) };
  }
  return parsed.clients;
}
