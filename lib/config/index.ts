/**
 * Configuration (README.md#configuration). The local server and Lambda read the same names; this module is the
 * one place that reads them. Secrets are resolved separately (./secrets.ts).
 */

export const DEFAULT_STEDI_BASE_URL = 'https://healthcare.us.stedi.com/2024-04-01';
// claude-sonnet-4-5 reaches end-of-life on 2026-11-30 (the SDK warns); override with LETTER_MODEL.
export const DEFAULT_LETTER_MODEL = 'claude-sonnet-5-5';
/** API Gateway cuts at 30 s; every upstream attempt and retry fits in this. */
export const UPSTREAM_BUDGET_MS = 25_000;

export interface Config {
  stediBaseUrl: string;
  anthropicBaseUrl?: string;
  letterModel: string;
  upstreamBudgetMs: number;
  enrollmentsTable?: string;
}

type Env = Record<string, string | undefined>;

const nonEmpty = (value: string | undefined): string | undefined => (value && value.trim() !== '' ? value.trim() : undefined);

/** Optional override (tests and load runs shorten it); only whole ms in 1..25000 count, else the default. */
function upstreamBudget(value: string | undefined): number {
  const ms = Number(nonEmpty(value));
  return Number.isInteger(ms) && ms >= 1 && ms <= UPSTREAM_BUDGET_MS ? ms : UPSTREAM_BUDGET_MS;
}

export function readConfig(env: Env = process.env): Config {
  const config: Config = {
    stediBaseUrl: (nonEmpty(env.STEDI_BASE_URL) ?? DEFAULT_STEDI_BASE_URL).replace(/\/+$/, ''),
    letterModel: nonEmpty(env.LETTER_MODEL) ?? DEFAULT_LETTER_MODEL,
    upstreamBudgetMs: upstreamBudget(env.UPSTREAM_BUDGET_MS),
  };
  const anthropicBaseUrl = nonEmpty(env.ANTHROPIC_BASE_URL);
  if (anthropicBaseUrl) config.anthropicBaseUrl = anthropicBaseUrl;
  const enrollmentsTable = nonEmpty(env.ENROLLMENTS_TABLE);
  if (enrollmentsTable) config.enrollmentsTable = enrollmentsTable;
  return config;
}
