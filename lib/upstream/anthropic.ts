import Anthropic from '@anthropic-ai/sdk';

/**
 * A thin Anthropic Messages API client: one `messages.create` call, one retry for transient
 * failures, every attempt and wait inside one time budget given by the caller. It knows nothing of
 * what the message is for; callers build the request and read the answer (lib/letter does both).
 * The SDK's own retries are off so the budget and the retry count are ours. Nothing here logs.
 */

/** A retry with less time than this left cannot finish, so it is not attempted. */
const MIN_RETRY_BUDGET_MS = 3_000;
const DEFAULT_BACKOFF_MS = 400;
/** A retry-after longer than this is not waited for inside a request; it is passed to the caller. */
const MAX_RETRY_WAIT_MS = 10_000;

export type MessageRequest = Anthropic.MessageCreateParamsNonStreaming;
export type Message = Anthropic.Message;

export interface MessagesCall {
  apiKey: string;
  baseURL?: string;
  /** Total budget for every attempt and wait, in ms. */
  budgetMs: number;
  request: MessageRequest;
}

/** Token counts the API reported (no text). */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export interface MessagesAnswer {
  message: Message;
  usage: Usage;
  requestId?: string;
  attempts: number;
}

/** Why a call failed, in the API's terms; the caller maps these onto its own error codes. */
export type MessagesFailureKind =
  | 'no-key' // no key configured: nothing was sent
  | 'credentials' // 401 / 403
  | 'unavailable' // 429, 5xx, 529, network errors (after the retry)
  | 'timeout' // the budget ran out
  | 'rejected' // 400 / 413 / 422: the API would not process this request
  | 'unexpected-status'
  | 'unreadable'; // the answer is not a message

export interface MessagesFailure {
  kind: MessagesFailureKind;
  status?: number;
  retryAfterSeconds?: number;
  requestId?: string;
  attempts: number;
}

export type MessagesResult = { ok: true; value: MessagesAnswer } | { ok: false; failure: MessagesFailure };

type Attempt =
  | { kind: 'answer'; message: Message; requestId?: string }
  | { kind: 'failure'; failure: Omit<MessagesFailure, 'attempts'>; retryable: boolean; retryAfterMs?: number };

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

/** HTTP status → failure kind and whether one more attempt may help. */
function classifyStatus(status: number): { kind: MessagesFailureKind; retryable: boolean } {
  if (status === 401 || status === 403) return { kind: 'credentials', retryable: false };
  if (status === 429 || status >= 500) return { kind: 'unavailable', retryable: true };
  if (status === 400 || status === 413 || status === 422) return { kind: 'rejected', retryable: false };
  return { kind: 'unexpected-status', retryable: false };
}

function classifyThrown(error: unknown): Attempt {
  if (error instanceof Anthropic.APIConnectionTimeoutError) return { kind: 'failure', failure: { kind: 'timeout' }, retryable: true };
  if (error instanceof Anthropic.APIUserAbortError) return { kind: 'failure', failure: { kind: 'timeout' }, retryable: false };
  if (error instanceof Anthropic.APIConnectionError) return { kind: 'failure', failure: { kind: 'unavailable' }, retryable: true };
  if (error instanceof Anthropic.APIError && typeof error.status === 'number') {
    const after = retryAfterMs(error.headers);
    const { kind, retryable } = classifyStatus(error.status);
    return {
      kind: 'failure',
      retryable,
      retryAfterMs: after,
      failure: {
        kind,
        status: error.status,
        ...(after === undefined ? {} : { retryAfterSeconds: Math.max(1, Math.ceil(after / 1000)) }),
        ...(error.requestID ? { requestId: error.requestID } : {}),
      },
    };
  }
  // Unparseable bodies and anything else the SDK throws.
  return { kind: 'failure', failure: { kind: 'unreadable' }, retryable: false };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);

export function usageOf(message: Message): Usage {
  const usage = (message as { usage?: Partial<Anthropic.Usage> }).usage ?? {};
  return {
    inputTokens: count(usage.input_tokens),
    outputTokens: count(usage.output_tokens),
    cacheReadTokens: count(usage.cache_read_input_tokens),
    cacheWriteTokens: count(usage.cache_creation_input_tokens),
  };
}

export async function createMessage(call: MessagesCall): Promise<MessagesResult> {
  const deadline = Date.now() + call.budgetMs;
  if (!call.apiKey) return { ok: false, failure: { kind: 'no-key', attempts: 0 } };

  const client = new Anthropic({ apiKey: call.apiKey, baseURL: call.baseURL ?? 'https://api.anthropic.com', maxRetries: 0, logLevel: 'off' });
  const attemptOnce = async (): Promise<Attempt> => {
    try {
      const { data, request_id } = await client.messages
        .create(call.request, { timeout: Math.max(1, deadline - Date.now()), maxRetries: 0 })
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
    if (wait <= MAX_RETRY_WAIT_MS && deadline - Date.now() - wait >= MIN_RETRY_BUDGET_MS) {
      await sleep(wait);
      attempts = 2;
      outcome = await attemptOnce();
    }
  }
  if (outcome.kind === 'failure') return { ok: false, failure: { ...outcome.failure, attempts } };
  // The SDK returns whatever JSON came back; check the shape before anyone trusts it.
  const message = outcome.message as unknown;
  if (typeof message !== 'object' || message === null || !Array.isArray((message as Message).content)) {
    return { ok: false, failure: { kind: 'unreadable', attempts, ...(outcome.requestId ? { requestId: outcome.requestId } : {}) } };
  }
  return { ok: true, value: { message: outcome.message, usage: usageOf(outcome.message), attempts, ...(outcome.requestId ? { requestId: outcome.requestId } : {}) } };
}
