import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@aws-lambda-powertools/logger';
import { logSettings } from '../config/index.js';

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
  /** Batch eligibility (docs/batch.md): ids, counts and timings only. */
  batchId?: string;
  itemIndex?: number;
  items?: number;
  retryInSeconds?: number;
  /** Insurance discovery (docs/finding-coverage.md): our own random id, the coverages found and the checks run. */
  discoveryId?: string;
  coverages?: number;
  errorName?: string;
  /** Stack frames only (the first line, which may quote data, is dropped). */
  frames?: string;
}

const settings = logSettings();
export const logger = new Logger({ serviceName: settings.serviceName, logLevel: settings.logLevel as 'INFO' });

/**
 * Per-request keys live in the request's own async context (docs/security.md#local-server), not on
 * the shared logger: in Lambda one invocation runs at a time, but the local server runs many
 * requests at once, and keys appended to one logger would leak from one request into another's lines.
 */
interface RequestScope {
  requestId?: string;
}
const requestScope = new AsyncLocalStorage<RequestScope>();

const scoped = (fields: SafeLogFields) => {
  const requestId = requestScope.getStore()?.requestId;
  return requestId ? { requestId, ...fields } : { ...fields };
};

export const log = {
  info: (message: string, fields: SafeLogFields = {}) => logger.info(message, scoped(fields)),
  warn: (message: string, fields: SafeLogFields = {}) => logger.warn(message, scoped(fields)),
  error: (message: string, fields: SafeLogFields = {}) => logger.error(message, scoped(fields)),
};

/** Runs `fn` (one request's handling) in a fresh log scope; withRequestKeys inside it fills the scope. */
export function inRequestScope<T>(fn: () => T): T {
  return requestScope.run({}, fn);
}

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

/**
 * Sets the request id every later log line of this request carries: in the scope inRequestScope
 * opened, or else in a scope entered here for the rest of the current async context.
 */
export function withRequestKeys(requestId: string): void {
  const scope = requestScope.getStore();
  if (scope) scope.requestId = requestId;
  else requestScope.enterWith({ requestId });
}
