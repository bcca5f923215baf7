import { Logger } from '@aws-lambda-powertools/logger';

/**
 * Structured JSON logs (README.md, "Where patient data goes"). The only way to add fields is through `SafeLogFields`, a
 * closed list of names that carry no patient data: request bodies, names, dates of birth, member
 * ids, SSNs, file contents, letter text and X12 never have a field to go into.
 */
export interface SafeLogFields {
  route?: string;
  method?: string;
  status?: number;
  latencyMs?: number;
  code?: string;
  clientId?: string;
  payerId?: string;
  aaaCodes?: string[];
  traceId?: string;
  upstream?: string;
  upstreamMs?: number;
  attempts?: number;
  warnings?: number;
  /** Model usage (docs/letter.md#caching-and-logs): token counts only, never text. */
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** Letter outcome counts and notice codes (never the codes' context or any text). */
  citations?: number;
  codesRemoved?: number;
  notices?: string[];
  mock?: boolean;
  sandbox?: boolean;
  /** What the Idempotency-Key did (reuse and in-progress show as their error codes). */
  idempotency?: 'stored' | 'replayed' | 'not-stored';
  errorName?: string;
  /** Stack frames only (the first line, which may quote data, is dropped). */
  frames?: string;
}

export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'eligibility-service',
  logLevel: (process.env.POWERTOOLS_LOG_LEVEL ?? process.env.LOG_LEVEL ?? 'INFO') as 'INFO',
});

export const log = {
  info: (message: string, fields: SafeLogFields = {}) => logger.info(message, { ...fields }),
  warn: (message: string, fields: SafeLogFields = {}) => logger.warn(message, { ...fields }),
  error: (message: string, fields: SafeLogFields = {}) => logger.error(message, { ...fields }),
};

/** Names an unexpected exception without its message, which may quote input. */
export function describeException(error: unknown): Pick<SafeLogFields, 'errorName' | 'frames'> {
  if (!(error instanceof Error)) return { errorName: typeof error };
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .slice(0, 8)
    .map((line) => line.trim())
    .join(' | ');
  return { errorName: error.name, frames };
}

/** Per-request keys (request id) are appended for the duration of one invocation. */
export function withRequestKeys(requestId: string): void {
  logger.resetKeys();
  logger.appendKeys({ requestId });
}
