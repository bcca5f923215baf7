import { fileURLToPath } from 'node:url';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { AUTHORIZER_CACHE_SECONDS, PLAN_NAMES, type PlanName } from '../../lib/auth/tokens.js';
import { TOKEN_STORE_CACHE_SECONDS } from '../../lib/config/secrets.js';
import { DEFAULT_DISCOVERY_MAX_PER_DAY, DEFAULT_LETTER_MODEL, DEFAULT_STEDI_BASE_URL } from '../../lib/config/index.js';

/**
 * What a deployment may set (cdk.json "context", or `-c name=value`), read and checked once for the
 * whole stack: a typo fails the synth instead of deploying a wrong figure. docs/deployment.md
 */

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface UsagePlanSettings {
  /** Steady requests per second for one client, across all routes. */
  rateLimit: number;
  burstLimit: number;
  /** Requests per calendar month (UTC) for one client. */
  monthlyQuota: number;
  /** The letter route's own limit inside the plan: every letter is a paid model call. */
  letterRateLimit: number;
  letterBurstLimit: number;
}

export const DEFAULTS = {
  stediBaseUrl: DEFAULT_STEDI_BASE_URL,
  letterModel: DEFAULT_LETTER_MODEL,
  powertoolsLogLevel: 'INFO',
  logRetentionDays: 365,
  stageName: 'prod',
  /** The stage's ceiling over all clients together; each client is held to its plan below it. */
  throttleRateLimit: 100,
  throttleBurstLimit: 200,
  authorizerCacheSeconds: AUTHORIZER_CACHE_SECONDS,
  /** Comma-separated browser origins allowed by CORS; empty keeps CORS off (CORS_ALLOWED_ORIGINS). */
  corsAllowedOrigins: '',
  /** Requests one IP address may send in any 5-minute window before WAF answers 429. */
  wafRateLimitPerIp: 6000,
  /** docs/batch.md#engine: the worker's event source mapping MaximumConcurrency (BATCH_MAX_CONCURRENCY). */
  batchMaxConcurrency: 10,
  /** How long an item is retried on a throttled or unavailable clearinghouse (BATCH_RETRY_HOURS). */
  batchRetryHours: 8,
  /** Unfinished batch items one client may have (BATCH_MAX_PENDING_ITEMS). */
  batchMaxPendingItems: 20_000,
  /** docs/finding-coverage.md: Stedi's insurance discovery host (STEDI_DISCOVERY_BASE_URL) and each client's daily discoveries (DISCOVERY_MAX_PER_DAY). */
  stediDiscoveryBaseUrl: DEFAULT_STEDI_BASE_URL,
  discoveryMaxPerDay: DEFAULT_DISCOVERY_MAX_PER_DAY,
  usagePlans: {
    standard: { rateLimit: 10, burstLimit: 20, monthlyQuota: 100_000, letterRateLimit: 1, letterBurstLimit: 2 },
    high: { rateLimit: 50, burstLimit: 100, monthlyQuota: 1_000_000, letterRateLimit: 5, letterBurstLimit: 10 },
  } as Record<PlanName, UsagePlanSettings>,
};

export interface StackSettings {
  stediBaseUrl: string;
  letterModel: string;
  powertoolsLogLevel: string;
  logRetention: RetentionDays;
  stageName: string;
  throttleRateLimit: number;
  throttleBurstLimit: number;
  authorizerCacheSeconds: number;
  /** Empty when CORS is off. */
  corsOrigins: string[];
  wafRateLimitPerIp: number;
  usagePlans: Record<PlanName, UsagePlanSettings>;
  batch: { maxConcurrency: number; retryHours: number; maxPendingItems: number };
  discovery: { baseUrl: string; maxPerDay: number };
}

/** The stack's settings from its context, each checked. */
export function readSettings(scope: Construct): StackSettings {
  const setting = <K extends keyof typeof DEFAULTS>(key: K): (typeof DEFAULTS)[K] => (scope.node.tryGetContext(key) ?? DEFAULTS[key]) as (typeof DEFAULTS)[K];
  const logRetention = retentionDays(Number(setting('logRetentionDays')));
  const authorizerCacheSeconds = Number(setting('authorizerCacheSeconds'));
  // docs/deployment.md#revocation: a revoked token must stop working within 5 minutes.
  if (!(authorizerCacheSeconds >= 0 && authorizerCacheSeconds + TOKEN_STORE_CACHE_SECONDS <= 300)) {
    throw new Error(`authorizerCacheSeconds must be 0-${300 - TOKEN_STORE_CACHE_SECONDS} (the token store itself caches ${TOKEN_STORE_CACHE_SECONDS} s)`);
  }
  const corsOrigins = String(scope.node.tryGetContext('corsAllowedOrigins') ?? process.env.CORS_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  return {
    stediBaseUrl: setting('stediBaseUrl'),
    letterModel: setting('letterModel'),
    powertoolsLogLevel: setting('powertoolsLogLevel'),
    logRetention,
    stageName: setting('stageName'),
    throttleRateLimit: Number(setting('throttleRateLimit')),
    throttleBurstLimit: Number(setting('throttleBurstLimit')),
    authorizerCacheSeconds,
    corsOrigins,
    wafRateLimitPerIp: Number(setting('wafRateLimitPerIp')),
    usagePlans: usagePlanSettings(setting('usagePlans')),
    batch: batchSettings(Number(setting('batchMaxConcurrency')), Number(setting('batchRetryHours')), Number(setting('batchMaxPendingItems'))),
    discovery: discoverySettings(String(setting('stediDiscoveryBaseUrl')), Number(setting('discoveryMaxPerDay'))),
  };
}

/** Both plans, each with every figure a positive number (a typo in cdk.json fails the synth). */
function usagePlanSettings(value: unknown): Record<PlanName, UsagePlanSettings> {
  const plans = value as Record<string, Record<string, unknown>>;
  const fields: (keyof UsagePlanSettings)[] = ['rateLimit', 'burstLimit', 'monthlyQuota', 'letterRateLimit', 'letterBurstLimit'];
  for (const name of PLAN_NAMES) {
    for (const field of fields) {
      const figure = plans?.[name]?.[field];
      if (typeof figure !== 'number' || !(figure > 0)) throw new Error(`usagePlans.${name}.${field} must be a positive number`);
    }
  }
  return plans as unknown as Record<PlanName, UsagePlanSettings>;
}

/** Lambda accepts a MaximumConcurrency of 2 to 1000; the retry window must fit SQS's 12 h visibility and 14 d retention. */
function batchSettings(maxConcurrency: number, retryHours: number, maxPendingItems: number): StackSettings['batch'] {
  if (!(Number.isInteger(maxConcurrency) && maxConcurrency >= 2 && maxConcurrency <= 1000))
    throw new Error('batchMaxConcurrency must be a whole number from 2 to 1000');
  if (!(retryHours > 0 && retryHours <= 72)) throw new Error('batchRetryHours must be more than 0 and at most 72');
  if (!(Number.isInteger(maxPendingItems) && maxPendingItems >= 1)) throw new Error('batchMaxPendingItems must be a positive whole number');
  return { maxConcurrency, retryHours, maxPendingItems };
}

function discoverySettings(baseUrl: string, maxPerDay: number): StackSettings['discovery'] {
  if (!(Number.isInteger(maxPerDay) && maxPerDay >= 0)) throw new Error('discoveryMaxPerDay must be a whole number, 0 or more');
  return { baseUrl, maxPerDay };
}

function retentionDays(days: number): RetentionDays {
  const allowed = Object.values(RetentionDays).filter((v): v is number => typeof v === 'number' && v > 0);
  if (!allowed.includes(days)) throw new Error(`logRetentionDays must be one of ${allowed.join(', ')} (got ${days})`);
  return days as RetentionDays;
}
