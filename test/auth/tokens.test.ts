import { describe, expect, it } from '@jest/globals';
import { AUTHORIZER_CACHE_SECONDS, bearerToken, matchToken, parseTokenList, parseTokenSecret, REVOCATION_SECONDS, sha256Hex } from '../../lib/auth/tokens.js';
import { SECRETS, TOKEN_STORE_CACHE_SECONDS } from '../../lib/config/secrets.js';

describe('bearer tokens', () => {
  const clients = parseTokenList('acme=acme-token-123, beta=beta-token-456');

  it('stores only SHA-256 digests of the local token list', () => {
    expect(clients).toEqual([
      { clientId: 'acme', tokenSha256: sha256Hex('acme-token-123') },
      { clientId: 'beta', tokenSha256: sha256Hex('beta-token-456') },
    ]);
    expect(JSON.stringify(clients)).not.toContain('acme-token-123');
  });

  it('finds the client of a known token and nothing for others', () => {
    expect(matchToken('beta-token-456', clients)?.clientId).toBe('beta');
    expect(matchToken('beta-token-457', clients)?.clientId).toBeUndefined();
    expect(matchToken('short', clients)?.clientId).toBeUndefined();
    expect(matchToken('has space inside', clients)?.clientId).toBeUndefined();
  });

  it('reads the Secrets Manager document and rejects malformed ones', () => {
    const digest = sha256Hex('t0ken-value');
    expect(parseTokenSecret(JSON.stringify({ clients: [{ clientId: 'acme', tokenSha256: digest.toUpperCase() }] }))).toEqual([
      { clientId: 'acme', tokenSha256: digest },
    ]);
    expect(() => parseTokenSecret('{"clients":[{"clientId":"acme","tokenSha256":"abc"}]}')).toThrow(/malformed/);
    expect(() => parseTokenSecret('{}')).toThrow(/clients/);
    expect(() => parseTokenList('no-equals-sign')).toThrow(/clientId=token/);
  });

  it('keeps the plan and API key fields the admin CLI writes, and rejects them when not strings', () => {
    const digest = sha256Hex('t0ken-value');
    const entry = { clientId: 'acme', tokenSha256: digest, plan: 'high', apiKeyId: 'k1abc', usageIdentifierKey: 'v'.repeat(40) };
    expect(parseTokenSecret(JSON.stringify({ clients: [entry] }))).toEqual([entry]);
    expect(parseTokenSecret(JSON.stringify({ clients: [{ ...entry, extra: 1 }] }))).toEqual([entry]);
    expect(() => parseTokenSecret(JSON.stringify({ clients: [{ ...entry, usageIdentifierKey: 42 }] }))).toThrow(/usageIdentifierKey/);
    expect(() => parseTokenSecret(JSON.stringify({ clients: [{ ...entry, plan: '' }] }))).toThrow(/plan/);
  });

  it('bounds revocation at 5 minutes: token-store cache plus authorizer cache', () => {
    expect(REVOCATION_SECONDS).toBe(TOKEN_STORE_CACHE_SECONDS + AUTHORIZER_CACHE_SECONDS);
    expect(REVOCATION_SECONDS).toBeLessThanOrEqual(300);
    expect(SECRETS.apiTokens.maxAgeSeconds).toBe(TOKEN_STORE_CACHE_SECONDS);
  });

  it('extracts a Bearer token, case-insensitively on the scheme only', () => {
    expect(bearerToken('Bearer abc.def')).toBe('abc.def');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
  });
});
