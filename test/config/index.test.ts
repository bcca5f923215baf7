import { describe, expect, it } from '@jest/globals';
import { corsAllowedOrigins, logSettings, readConfig, sandboxUpstreams, tokensFile } from '../../lib/config/index.js';

/** lib/config is the one reader of the environment (docs/architecture.md): each reader takes a plain map. */

describe('configuration readers', () => {
  it('reads the service settings with their defaults', () => {
    expect(readConfig({})).toEqual({
      stediBaseUrl: 'https://healthcare.us.stedi.com/2024-04-01',
      stediDiscoveryBaseUrl: 'https://healthcare.us.stedi.com/2024-04-01',
      discoveryMaxPerDay: 200,
      letterModel: expect.any(String),
      upstreamBudgetMs: 25_000,
      letterBudgetMs: 120_000,
    });
    const config = readConfig({ STEDI_BASE_URL: 'http://127.0.0.1:9/x//', UPSTREAM_BUDGET_MS: '500', LETTER_BUDGET_MS: '999999', IDEMPOTENCY_TABLE: ' t ' });
    expect(config).toMatchObject({ stediBaseUrl: 'http://127.0.0.1:9/x', upstreamBudgetMs: 500, letterBudgetMs: 120_000, idempotencyTable: 't' });
  });

  it('reads the discovery host (default the eligibility host) and the daily discovery cap (docs/finding-coverage.md)', () => {
    expect(readConfig({ STEDI_BASE_URL: 'http://127.0.0.1:9/x' }).stediDiscoveryBaseUrl).toBe('http://127.0.0.1:9/x');
    const config = readConfig({ STEDI_DISCOVERY_BASE_URL: 'https://discovery.example/v1/', DISCOVERY_MAX_PER_DAY: '5' });
    expect(config).toMatchObject({ stediDiscoveryBaseUrl: 'https://discovery.example/v1', discoveryMaxPerDay: 5 });
    expect(readConfig({ DISCOVERY_MAX_PER_DAY: 'lots' }).discoveryMaxPerDay).toBe(200);
  });

  it('reads CORS origins, sandbox upstreams, the local tokens file and the log settings', () => {
    expect(corsAllowedOrigins({})).toBe('');
    expect(corsAllowedOrigins({ CORS_ALLOWED_ORIGINS: 'https://a.example' })).toBe('https://a.example');
    expect(sandboxUpstreams({ SANDBOX_UPSTREAMS: 'stedi' })).toEqual({ stedi: true, anthropic: false });
    expect(sandboxUpstreams({})).toEqual({ stedi: false, anthropic: false });
    expect(tokensFile({})).toBeUndefined();
    expect(tokensFile({ API_TOKENS_FILE: ' .local/tokens.json ', API_TOKENS_FILE_OPTIONAL: 'true' })).toEqual({ path: '.local/tokens.json', optional: true });
    expect(tokensFile({ API_TOKENS_FILE: 'f' })).toEqual({ path: 'f', optional: false });
    expect(logSettings({})).toEqual({ serviceName: 'eligibility-service', logLevel: 'INFO' });
    expect(logSettings({ LOG_LEVEL: 'DEBUG', POWERTOOLS_SERVICE_NAME: 's' })).toEqual({ serviceName: 's', logLevel: 'DEBUG' });
    expect(logSettings({ LOG_LEVEL: 'DEBUG', POWERTOOLS_LOG_LEVEL: 'WARN' }).logLevel).toBe('WARN');
  });
});
