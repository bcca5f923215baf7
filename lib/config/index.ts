/**
 * Configuration (README.md#configuration). The local server and Lambda read the same names; this module is the
 * one place that reads them. Secrets are resolved separately (./secrets.ts).
 */

export const DEFAULT_STEDI_BASE_URL = 'https://healthcare.us.stedi.com/2024-04-01';
// claude-sonnet-4-5 reaches end-of-life on 2026-11-30 (the SDK warns); override with LETTER_MODEL.
export const DEFAULT_LETTER_MODEL = 'claude-sonnet-5-5';
/** API Gateway cuts at 30 s; every upstream attempt and retry fits in this. */
export const UPSTREAM_BUDGET_MS = 25_000;
/** The letter route streams, so the 30 s cut does not apply: the model gets up to 120 s, retry included (docs/runtime.md#streamed-letter). */
export const LETTER_BUDGET_MS = 120_000;

export interface Config {
  stediBaseUrl: string;
  anthropicBaseUrl?: string;
  letterModel: string;
  upstreamBudgetMs: number;
  letterBudgetMs: number;
  enrollmentsTable?: string;
  /** DynamoDB table of Idempotency-Key records (docs/runtime.md#idempotency). */
  idempotencyTable?: string;
}

type Env = Record<string, string | undefined>;

const nonEmpty = (value: string | undefined): string | undefined => (value && value.trim() !== '' ? value.trim() : undefined);

/** Optional override (tests and load runs shorten it); only whole ms in 1..max count, else the max. */
function budget(value: string | undefined, max: number): number {
  const ms = Number(nonEmpty(value));
  return Number.isInteger(ms) && ms >= 1 && ms <= max ? ms : max;
}

export function readConfig(env: Env = process.env): Config {
  const config: Config = {
    stediBaseUrl: (nonEmpty(env.STEDI_BASE_URL) ?? DEFAULT_STEDI_BASE_URL).replace(/\/+$/, ''),
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
