/**
 * Configuration (README.md#configuration). The local server and Lambda read the same names; this folder is the
 * one place in lib/ that reads the environment: other modules take an `Env` (default `environment()`) and
 * ask the readers below. Secrets are resolved separately (./secrets.ts); the service's version is ./version.ts.
 */

export { type Clock, fixedClock, systemClock } from './clock.js';

/** Environment variables as read: a plain map, so tests pass their own. */
export type Env = Record<string, string | undefined>;

/** The process's environment: the one read of `process.env` in lib/. */
export const environment = (): Env => process.env;

export const DEFAULT_STEDI_BASE_URL = 'https://healthcare.us.stedi.com/2024-04-01';
/** The model that writes letters unless `LETTER_MODEL` names another (README.md#configuration). */
export const DEFAULT_LETTER_MODEL = 'claude-sonnet-5-5';
/** API Gateway cuts at 30 s; every upstream attempt and retry fits in this. */
const UPSTREAM_BUDGET_MS = 25_000;
/** The letter route streams, so the 30 s cut does not apply: the model gets up to 120 s, retry included (docs/runtime.md#streamed-letter). */
export const LETTER_BUDGET_MS = 120_000;

/** The insurance discoveries a client may send upstream per UTC day unless DISCOVERY_MAX_PER_DAY says otherwise. */
export const DEFAULT_DISCOVERY_MAX_PER_DAY = 200;

export interface Config {
  stediBaseUrl: string;
  /**
   * Stedi's insurance discovery host (docs/finding-coverage.md): `STEDI_DISCOVERY_BASE_URL`, else the
   * eligibility host (`STEDI_BASE_URL`), which is where Stedi documents it today.
   */
  stediDiscoveryBaseUrl: string;
  /** Insurance discoveries per client per UTC day (DISCOVERY_MAX_PER_DAY, default 200). */
  discoveryMaxPerDay: number;
  anthropicBaseUrl?: string;
  letterModel: string;
  upstreamBudgetMs: number;
  letterBudgetMs: number;
  enrollmentsTable?: string;
  /** DynamoDB table of Idempotency-Key records (docs/runtime.md#idempotency). */
  idempotencyTable?: string;
}

const nonEmpty = (value: string | undefined): string | undefined => (value && value.trim() !== '' ? value.trim() : undefined);

/** Optional override (tests and load runs shorten it); only whole ms in 1..max count, else the max. */
function budget(value: string | undefined, max: number): number {
  const ms = Number(nonEmpty(value));
  return Number.isInteger(ms) && ms >= 1 && ms <= max ? ms : max;
}

/** A whole number ≥ 0 as written, else the default. */
function positiveInteger(value: string | undefined, fallback: number): number {
  const n = Number(nonEmpty(value));
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

export function readConfig(env: Env = environment()): Config {
  const stediBaseUrl = (nonEmpty(env.STEDI_BASE_URL) ?? DEFAULT_STEDI_BASE_URL).replace(/\/+$/, '');
  const config: Config = {
    stediBaseUrl,
    stediDiscoveryBaseUrl: (nonEmpty(env.STEDI_DISCOVERY_BASE_URL) ?? stediBaseUrl).replace(/\/+$/, ''),
    discoveryMaxPerDay: positiveInteger(env.DISCOVERY_MAX_PER_DAY, DEFAULT_DISCOVERY_MAX_PER_DAY),
    letterModel: nonEmpty(env.LETTER_MODEL) ?? DEFAULT_LETTER_MODEL,
    upstreamBudgetMs: budget(env.UPSTREAM_BUDGET_MS, UPSTREAM_BUDGET_MS),
    letterBudgetMs: budget(env.LETTER_BUDGET_MS, LETTER_BUDGET_MS),
  };
  const anthropicBaseUrl = nonEmpty(env.ANTHROPIC_BASE_URL);
  if (anthropicBaseUrl) config.anthropicBaseUrl = anthropicBaseUrl;
  const enrollmentsTable = nonEmpty(env.ENROLLMENTS_TABLE);
  if (enrollmentsTable) config.enrollmentsTable = enrollmentsTable;
  const idempotencyTable = nonEmpty(env.IDEMPOTENCY_TABLE);
  if (idempotencyTable) config.idempotencyTable = idempotencyTable;
  return config;
}

/** `CORS_ALLOWED_ORIGINS` as written ('' when unset: CORS off; docs/api.md#cors). */
export const corsAllowedOrigins = (env: Env = environment()): string => env.CORS_ALLOWED_ORIGINS ?? '';

/** `SANDBOX_UPSTREAMS`: which upstreams are the built-in sandboxes (set by `npm start`, named in logs). */
export function sandboxUpstreams(env: Env = environment()): { stedi: boolean; anthropic: boolean } {
  const names = (env.SANDBOX_UPSTREAMS ?? '').split(',');
  return { stedi: names.includes('stedi'), anthropic: names.includes('anthropic') };
}

/**
 * Local token sources besides the secret (docs/api.md#tokens): `API_TOKENS_FILE`, a file in the secret's
 * JSON form, and `API_TOKENS_FILE_OPTIONAL=true` when it may not exist yet (`npm start`'s .local/tokens.json).
 */
export function tokensFile(env: Env = environment()): { path: string; optional: boolean } | undefined {
  const path = nonEmpty(env.API_TOKENS_FILE);
  return path ? { path, optional: env.API_TOKENS_FILE_OPTIONAL === 'true' } : undefined;
}

/** The logger's service name and level (Powertools' own variable names). */
export function logSettings(env: Env = environment()): { serviceName: string; logLevel: string } {
  return { serviceName: env.POWERTOOLS_SERVICE_NAME ?? 'eligibility-service', logLevel: env.POWERTOOLS_LOG_LEVEL ?? env.LOG_LEVEL ?? 'INFO' };
}

/** Where batches live (docs/batch.md#configuration): the table, the item and webhook queues, and whether http callbacks to loopback are allowed (local only). */
export interface BatchPlaces {
  table?: string;
  queueUrl?: string;
  webhookQueueUrl?: string;
  allowLoopbackHttp: boolean;
}

export function batchPlaces(env: Env = environment()): BatchPlaces {
  const places: BatchPlaces = { allowLoopbackHttp: env.BATCH_ALLOW_LOOPBACK_HTTP === 'true' };
  const table = nonEmpty(env.BATCH_TABLE);
  if (table) places.table = table;
  const queueUrl = nonEmpty(env.BATCH_QUEUE_URL);
  if (queueUrl) places.queueUrl = queueUrl;
  const webhookQueueUrl = nonEmpty(env.BATCH_WEBHOOK_QUEUE_URL);
  if (webhookQueueUrl) places.webhookQueueUrl = webhookQueueUrl;
  return places;
}
