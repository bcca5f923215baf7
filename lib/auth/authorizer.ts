import { readFile } from 'node:fs/promises';
import { type Clock, type Env, environment, readSecret, SECRETS, systemClock, tokensFile } from '../config/index.js';
import { bearerToken, type ClientToken, matchToken, parseTokenList, parseTokenSecret, WEBHOOK_SECRET_OVERLAP_SECONDS } from './tokens.js';

/**
 * The bearer-token decision (docs/runtime.md#authorizer) and where the token digests come from:
 * Secrets Manager in AWS (`API_TOKENS_SECRET_ARN`, cached in memory), `API_TOKENS` locally, plus
 * locally `API_TOKENS_FILE`: a file in the secret's JSON form (`npm start` points it at
 * .local/tokens.json, which `npm run admin -- token create` writes; docs/api.md#tokens). A file named
 * by the operator must exist; the default one may not exist yet (`API_TOKENS_FILE_OPTIONAL=true`,
 * set by `npm start`), so a token created later, while the server runs, is accepted at once.
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

let parsed: { source: string; clients: ClientToken[] } | undefined;

/** The known clients. Parsing is memoised on the sources' text, so a rotation is picked up. */
export async function loadClients(env: Env = environment()): Promise<ClientToken[]> {
  const fromSecret = Boolean(env[SECRETS.apiTokens.arnVariable]?.trim());
  const source = await readSecret(SECRETS.apiTokens, env);
  const file = tokensFile(env);
  // Read on every call (local runs only), so a token just created is accepted without a restart.
  const fileText = file ? await readTokensFile(file.path, file.optional) : undefined;
  if (source === undefined && fileText === undefined) throw new Error('no API token store is configured (API_TOKENS_SECRET_ARN or API_TOKENS)');
  const key = `${fromSecret ? 'secret' : 'list'}:${source ?? ''}\u0000${fileText ?? ''}`;
  if (parsed?.source !== key) {
    const listed = source === undefined ? [] : fromSecret ? parseTokenSecret(source) : parseTokenList(source);
    parsed = { source: key, clients: [...listed, ...(fileText === undefined ? [] : parseTokenSecret(fileText))] };
  }
  return parsed.clients;
}

/** The file's text; a missing optional file has none (the CLI has not written it yet). Anything else unreadable throws. */
async function readTokensFile(file: string, optional: boolean): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (optional && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The client's webhook signing secrets from the token store (docs/batch.md#webhook-secrets): the current
 * one first, then the one it replaced while their overlap lasts; empty when the client has none.
 */
export async function webhookSecretsOf(clientId: string, env: Env = environment(), clock: Clock = systemClock): Promise<string[]> {
  const client = (await loadClients(env)).find((c) => c.clientId === clientId && c.webhookSecret);
  if (!client?.webhookSecret) return [];
  const rotatedAt = Date.parse(client.webhookSecretRotatedAt ?? '');
  const overlapping = client.previousWebhookSecret && clock.now() - rotatedAt < WEBHOOK_SECRET_OVERLAP_SECONDS * 1000;
  return overlapping ? [client.webhookSecret, client.previousWebhookSecret!] : [client.webhookSecret];
}
