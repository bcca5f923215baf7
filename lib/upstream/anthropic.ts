import Anthropic from '@anthropic-ai/sdk';
import { fail, ok, serviceError, type Result, type ServiceError } from '../errors/index.js';
import { checkLetterBody } from '../letter/check-output.js';
import { buildLetterUserContent, LETTER_SYSTEM_PROMPT } from '../letter/prompt.js';
import type { LetterMetadata } from '../letter/types.js';

/**
 * The letter's AI call (CONTRACT §1, §3, §6): one Messages API request with the notes as a PDF
 * document block, one retry for transient failures, all inside one time budget. The SDK's own
 * retries are off so the budget and the retry count are ours. Nothing here logs; the caller logs
 * `requestId` and `attempts`.
 */

export const DEFAULT_LETTER_BUDGET_MS = 120_000;
/** Enough for ~700 words of markdown; a longer answer is cut off and rejected, not sent. */
export const LETTER_MAX_TOKENS = 2_048;
/** A retry with less time than this left cannot finish a letter, so it is not attempted. */
const MIN_RETRY_BUDGET_MS = 3_000;
const DEFAULT_BACKOFF_MS = 400;
/** A retry-after longer than this is not waited for inside a request; it is passed to the caller. */
const MAX_RETRY_WAIT_MS = 10_000;

export type LetterPromptMetadata = Pick<LetterMetadata, 'patient_name' | 'patient_age' | 'patient_identifier' | 'facility_name' | 'visit_cost'>;

export interface WriteLetterArgs {
  apiKey: string;
  baseURL?: string;
  model: string;
  /** Total budget for every attempt and wait; defaults to 120 s (the letter route streams, so no 30 s cut). */
  timeoutMs?: number;
  pdfBase64: string;
  metadata: LetterPromptMetadata;
}

export interface LetterBody {
  body: string;
  /** The model that answered, as the API reports it. */
  model: string;
  requestId?: string;
  attempts: number;
}

type Attempt =
  | { kind: 'answer'; message: Anthropic.Message; requestId?: string }
  | { kind: 'failure'; error: ServiceError; retryable: boolean; retryAfterMs?: number; requestId?: string };

const retryAfterMs = (headers: Headers | undefined): number | undefined => {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
};

/** HTTP status → what it means for the letter, in one table. */
function classifyStatus(status: number, retryAfter?: number): { error: ServiceError; retryable: boolean } {
  const retryAfterSeconds = retryAfter === undefined ? undefined : Math.max(1, Math.ceil(retryAfter / 1000));
  if (status === 401 || status === 403) {
    return { error: serviceError('CONFIGURATION_ERROR', { message: 'The AI service rejected the configured credentials' }), retryable: false };
  }
  if (status === 429 || status === 529 || status >= 500) {
    return { error: serviceError('AI_UNAVAILABLE', { retryAfterSeconds }), retryable: true };
  }
  if (status === 400 || status === 413 || status === 422) {
    return { error: serviceError('LETTER_NOT_GENERATED', { message: 'The AI service could not process this document' }), retryable: false };
  }
  return { error: serviceError('UPSTREAM_ERROR', { message: `The AI service answered with an unexpected status ${status}` }), retryable: false };
}

function classifyThrown(error: unknown): Attempt {
  if (error instanceof Anthropic.APIConnectionTimeoutError) {
    return { kind: 'failure', error: serviceError('UPSTREAM_TIMEOUT', { message: 'The AI service did not answer in time' }), retryable: true };
  }
  if (error instanceof Anthropic.APIUserAbortError) {
    return { kind: 'failure', error: serviceError('UPSTREAM_TIMEOUT', { message: 'The AI service did not answer in time' }), retryable: false };
  }
  if (error instanceof Anthropic.APIConnectionError) {
    return { kind: 'failure', error: serviceError('AI_UNAVAILABLE', { message: 'The AI service could not be reached' }), retryable: true };
  }
  if (error instanceof Anthropic.APIError && typeof error.status === 'number') {
    const after = retryAfterMs(error.headers);
    return { kind: 'failure', ...classifyStatus(error.status, after), retryAfterMs: after, requestId: error.requestID ?? undefined };
  }
  // Unparseable bodies and anything else the SDK throws.
  return { kind: 'failure', error: serviceError('UPSTREAM_ERROR', { message: 'The AI service answer could not be read' }), retryable: false };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function writeLetterBody(args: WriteLetterArgs): Promise<Result<LetterBody>> {
  const budget = args.timeoutMs ?? DEFAULT_LETTER_BUDGET_MS;
  const deadline = Date.now() + budget;
  if (!args.apiKey) return fail(serviceError('CONFIGURATION_ERROR', { message: 'No AI service key is configured' }));

  const client = new Anthropic({
    apiKey: args.apiKey,
    baseURL: args.baseURL ?? 'https://api.anthropic.com',
    maxRetries: 0,
    logLevel: 'off',
  });
  const request = {
    model: args.model,
    max_tokens: LETTER_MAX_TOKENS,
    system: LETTER_SYSTEM_PROMPT,
    messages: [{ role: 'user' as const, content: buildLetterUserContent(args.pdfBase64, args.metadata) }],
  };

  const attemptOnce = async (): Promise<Attempt> => {
    try {
      const { data, request_id } = await client.messages
        .create(request, { timeout: Math.max(1, deadline - Date.now()), maxRetries: 0 })
        .withResponse();
      return { kind: 'answer', message: data, requestId: request_id ?? undefined };
    } catch (error) {
      return classifyThrown(error);
    }
  };

  let attempts = 1;
  let outcome = await attemptOnce();
  if (outcome.kind === 'failure' && outcome.retryable) {
    const wait = outcome.retryAfterMs ?? DEFAULT_BACKOFF_MS;
    const left = deadline - Date.now() - wait;
    if (wait <= MAX_RETRY_WAIT_MS && left >= MIN_RETRY_BUDGET_MS) {
      await sleep(wait);
      attempts = 2;
      outcome = await attemptOnce();
    }
  }
  if (outcome.kind === 'failure') return fail(outcome.error);
  return readAnswer(outcome.message, outcome.requestId, attempts);
}

/** The SDK returns whatever JSON came back; check the shape before trusting it. */
function readAnswer(message: Anthropic.Message, requestId: string | undefined, attempts: number): Result<LetterBody> {
  const unreadable = () => fail<LetterBody>(serviceError('UPSTREAM_ERROR', { message: 'The AI service answer could not be read' }));
  if (typeof message !== 'object' || message === null || !Array.isArray(message.content)) return unreadable();
  const text = message.content
    .filter((block): block is Anthropic.TextBlock => block?.type === 'text' && typeof (block as { text?: unknown }).text === 'string')
    .map((block) => block.text)
    .join('');
  const checked = checkLetterBody(text, message.stop_reason);
  if (!checked.ok) return checked;
  return ok({ body: checked.value, model: typeof message.model === 'string' ? message.model : 'unknown', requestId, attempts });
}
