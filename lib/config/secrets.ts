/**
 * A secret is read from Secrets Manager when its ARN variable is set (AWS), else from a plain
 * variable (local runs). Secrets Manager values are cached in memory for SECRET_MAX_AGE_SECONDS by
 * Powertools, so a warm Lambda does not call Secrets Manager per request.
 */

import { environment, type Env } from './env.js';

const SECRET_MAX_AGE_SECONDS = 300;
/**
 * How long the token store is cached: one half of how long a revoked token keeps working in AWS
 * (lib/auth/tokens.ts REVOCATION_SECONDS, docs/deployment.md#revocation).
 */
export const TOKEN_STORE_CACHE_SECONDS = 60;

export interface SecretSource {
  /** e.g. STEDI_SECRET_ARN */
  arnVariable: string;
  /** e.g. STEDI_API_KEY */
  valueVariable: string;
  /** Cache lifetime when shorter than SECRET_MAX_AGE_SECONDS (the token store bounds revocation time). */
  maxAgeSeconds?: number;
}

export const SECRETS = {
  apiTokens: { arnVariable: 'API_TOKENS_SECRET_ARN', valueVariable: 'API_TOKENS', maxAgeSeconds: TOKEN_STORE_CACHE_SECONDS },
  stedi: { arnVariable: 'STEDI_SECRET_ARN', valueVariable: 'STEDI_API_KEY' },
  anthropic: { arnVariable: 'ANTHROPIC_SECRET_ARN', valueVariable: 'ANTHROPIC_API_KEY' },
} as const satisfies Record<string, SecretSource>;

/** The secret's text, or undefined when neither variable is set. Throws when Secrets Manager fails. */
export async function readSecret(source: SecretSource, env: Env = environment()): Promise<string | undefined> {
  const arn = env[source.arnVariable]?.trim();
  if (arn) {
    // Loaded on first use: the SDK's evaluation is a large part of a cold start, and local runs never need it.
    const { getSecret } = await import('@aws-lambda-powertools/parameters/secrets');
    const value = await getSecret<string>(arn, { maxAge: source.maxAgeSeconds ?? SECRET_MAX_AGE_SECONDS });
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  }
  const value = env[source.valueVariable]?.trim();
  return value ? value : undefined;
}
