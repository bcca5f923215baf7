import type Anthropic from '@anthropic-ai/sdk';
import { ok, type Result } from '../errors/index.js';
import { retryAfterOf, retryAfterSeconds, withRetry, type Attempt, type RetryFailures, type RetryTuning } from './retry.js';

/**
 * A thin Anthropic Messages API client: one streamed `messages.create` call under the shared retry
 * policy (./retry.ts: one retry for transient failures, every attempt and wait inside one time
 * budget given by the caller). It knows nothing of what the message is for; callers build the
 * request and read the answer (lib/letter does both). The SDK's own retries are off so the budget
 * and the retry count are ours. Nothing here logs.
 *
 * The answer is read as server-sent events and put together here, with a cap counted on what the
 * model wrote (docs/letter.md#the-models-answer), not on the wire's JSON: at most `maxTextBytes`
 * of text (UTF-8) and as much again of cited passages. Past either, the stream is aborted (the
 * connection dropped) and the call fails as `too-long`; nothing past the cap is held.
 *
 * The SDK itself is loaded with the first message, not with the module: in a Lambda bundle it is a
 * bundle of its own beside the handler (docs/deployment.md#side-bundles), so the functions that only
 * sometimes call the model (MCP's card tool) do not parse it at every cold start.
 */

type Sdk = typeof Anthropic;
let sdk: Promise<Sdk> | undefined;
const loadSdk = (): Promise<Sdk> =>
  (sdk ??= (
    (import.meta.sideBundles ? import(new URL('./anthropic-sdk.mjs', import.meta.url).href) : import('./anthropic-sdk.js')) as Promise<{ default: Sdk }>
  ).then((module) => module.default));

/** What one answer may hold: 1 MiB of text (a long letter is 20 KB), and 1 MiB of cited passages. */
export const MAX_TEXT_BYTES = 1024 * 1024;

/**
 * This client's tuning of the shared retry policy (./retry.ts): a letter retry with less than 3 s
 * left cannot finish, so it is not attempted; a Retry-After over 10 s is passed to the caller
 * instead of being waited for inside a request.
 */
const LETTER_RETRY: RetryTuning = { minAttemptMs: 3_000, delayMs: () => 400, maxWaitMs: 10_000 };

export type MessageRequest = Anthropic.MessageCreateParamsNonStreaming;
export type Message = Anthropic.Message;

export interface MessagesCall {
  apiKey: string;
  baseURL?: string;
  /** Total budget for every attempt and wait, in ms. */
  budgetMs: number;
  request: MessageRequest;
  /** Cap on the answer's text and, separately, on its cited passages (UTF-8 bytes); MAX_TEXT_BYTES by default. */
  maxTextBytes?: number;
  /** Test seams for the retry policy (time); production uses the defaults. */
  tuning?: Pick<RetryTuning, 'clock' | 'sleep' | 'timeoutSignal'>;
}

/** Token counts the API reported (no text). */
interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

interface MessagesAnswer {
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
  | 'too-long' // the answer's text or cited passages passed the cap: the stream was dropped
  | 'unreadable'; // the answer is not a message

export interface MessagesFailure {
  kind: MessagesFailureKind;
  status?: number;
  retryAfterSeconds?: number;
  requestId?: string;
  attempts: number;
}

export type MessagesResult = { ok: true; value: MessagesAnswer } | { ok: false; failure: MessagesFailure };

type Failure = Omit<MessagesFailure, 'attempts'>;
type Answer = { message: Message; requestId?: string };

/** HTTP status → failure kind and whether one more attempt may help. */
function classifyStatus(status: number): { kind: MessagesFailureKind; retryable: boolean } {
  if (status === 401 || status === 403) return { kind: 'credentials', retryable: false };
  if (status === 429 || status >= 500) return { kind: 'unavailable', retryable: true };
  if (status === 400 || status === 413 || status === 422) return { kind: 'rejected', retryable: false };
  return { kind: 'unexpected-status', retryable: false };
}

/** What a thrown SDK error means; `nowMs` is the retry policy's clock, a Retry-After date is read against it. */
function classifyThrown(Anthropic: Sdk, error: unknown, nowMs: number): Attempt<Answer, Failure> {
  if (error instanceof Anthropic.APIConnectionTimeoutError) return { retryable: true, error: { kind: 'timeout' } };
  if (error instanceof Anthropic.APIUserAbortError) return { ok: false, error: { kind: 'timeout' } };
  if (error instanceof Anthropic.APIConnectionError) return { retryable: true, error: { kind: 'unavailable' } };
  if (error instanceof Anthropic.APIError && typeof error.status === 'number') {
    const after = retryAfterOf(error.headers, nowMs);
    const { kind, retryable } = classifyStatus(error.status);
    const failure: Failure = {
      kind,
      status: error.status,
      ...(after === undefined ? {} : { retryAfterSeconds: retryAfterSeconds(after) }),
      ...(error.requestID ? { requestId: error.requestID } : {}),
    };
    if (!retryable) return { ok: false, error: failure };
    return after === undefined ? { retryable: true, error: failure } : { retryable: true, error: failure, retryAfterMs: after };
  }
  // Unparseable bodies and anything else the SDK throws.
  return { ok: false, error: { kind: 'unreadable' } };
}

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);

function usageOf(message: Message): Usage {
  const usage = (message as { usage?: Partial<Anthropic.Usage> }).usage ?? {};
  return {
    inputTokens: count(usage.input_tokens),
    outputTokens: count(usage.output_tokens),
    cacheReadTokens: count(usage.cache_read_input_tokens),
    cacheWriteTokens: count(usage.cache_creation_input_tokens),
  };
}

/** The policy's own failures, in this client's terms. */
const FAILURES: RetryFailures<Failure> = { timeout: () => ({ kind: 'timeout' }), unreachable: () => ({ kind: 'unavailable' }) };

type Accumulated = { ok: true; message: Message } | { ok: false; kind: 'too-long' | 'unreadable' };

/** One block being streamed: a text block's text as parts (joined once, at its end) and its citations; a tool_use block's input JSON as parts. */
interface OpenBlock {
  block: Record<string, unknown>;
  parts?: string[];
  citations?: unknown[];
  json?: string[];
}

/** A tool_use block's input from its streamed JSON (an empty stream is `{}`); undefined when the JSON is broken. */
function toolInput(parts: string[]): unknown {
  const text = parts.join('');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The message the events describe, put together as they arrive, the caps counted on the text and
 * cited passages as each delta comes in. A tool_use block's input arrives as JSON deltas, counted
 * against the text cap and parsed at the message's end (a forced tool answer, docs/finding-coverage.md#insurance-card);
 * other blocks are kept as started, and other deltas are not kept.
 */
async function accumulate(events: AsyncIterable<Anthropic.RawMessageStreamEvent>, maxBytes: number): Promise<Accumulated> {
  let message: Message | undefined;
  const blocks: OpenBlock[] = [];
  let textBytes = 0;
  let citedBytes = 0;
  for await (const event of events) {
    switch (event.type) {
      case 'message_start':
        message = { ...event.message, content: [] };
        break;
      case 'content_block_start': {
        const block = { ...event.content_block } as Record<string, unknown>;
        blocks[event.index] =
          block.type === 'text'
            ? { block, parts: [String(block.text ?? '')], citations: Array.isArray(block.citations) ? [...block.citations] : undefined }
            : block.type === 'tool_use'
              ? { block, json: [] }
              : { block };
        break;
      }
      case 'content_block_delta': {
        const open = blocks[event.index];
        if (open?.json && event.delta.type === 'input_json_delta') {
          textBytes += Buffer.byteLength(event.delta.partial_json, 'utf8');
          if (textBytes > maxBytes) return { ok: false, kind: 'too-long' };
          open.json.push(event.delta.partial_json);
          break;
        }
        if (!open?.parts) break;
        if (event.delta.type === 'text_delta') {
          textBytes += Buffer.byteLength(event.delta.text, 'utf8');
          if (textBytes > maxBytes) return { ok: false, kind: 'too-long' };
          open.parts.push(event.delta.text);
        } else if (event.delta.type === 'citations_delta') {
          const cited = (event.delta.citation as { cited_text?: unknown }).cited_text;
          citedBytes += typeof cited === 'string' ? Buffer.byteLength(cited, 'utf8') : 0;
          if (citedBytes > maxBytes) return { ok: false, kind: 'too-long' };
          open.citations ??= [];
          open.citations.push(event.delta.citation);
        }
        break;
      }
      case 'message_delta':
        if (!message) break;
        message.stop_reason = event.delta.stop_reason;
        message.usage = { ...message.usage, output_tokens: event.usage.output_tokens };
        break;
      case 'message_stop': {
        if (!message) return { ok: false, kind: 'unreadable' };
        const content = [];
        for (const { block, parts, citations, json } of blocks.filter(Boolean)) {
          if (parts) content.push({ ...block, text: parts.join(''), citations: citations ?? null });
          else if (json) {
            const input = toolInput(json);
            if (input === undefined) return { ok: false, kind: 'unreadable' };
            content.push({ ...block, input });
          } else content.push(block);
        }
        return { ok: true, message: { ...message, content: content as unknown as Message['content'] } };
      }
    }
  }
  // The stream ended before message_stop: not a whole message.
  return { ok: false, kind: 'unreadable' };
}

export async function createMessage(call: MessagesCall): Promise<MessagesResult> {
  if (!call.apiKey) return { ok: false, failure: { kind: 'no-key', attempts: 0 } };

  const maxBytes = call.maxTextBytes ?? MAX_TEXT_BYTES;
  const Anthropic = await loadSdk();
  const client = new Anthropic({ apiKey: call.apiKey, baseURL: call.baseURL ?? 'https://api.anthropic.com', maxRetries: 0, logLevel: 'off' });
  const { outcome, attempts } = await withRetry<Answer, Failure>(
    async (signal, _attemptNo, remainingMs, clock) => {
      try {
        const { data: stream, request_id } = await client.messages
          .create({ ...call.request, stream: true }, { timeout: Math.max(1, remainingMs), maxRetries: 0, signal })
          .withResponse();
        const id = request_id ? { requestId: request_id } : {};
        const read = await accumulate(stream, maxBytes);
        if (read.ok) return { ok: true, value: { message: read.message, ...id } };
        // Past the cap (or not a message): drop the connection and keep nothing more; neither is retried.
        stream.controller.abort();
        return { ok: false, error: { kind: read.kind, ...id } };
      } catch (error) {
        return classifyThrown(Anthropic, error, clock.now());
      }
    },
    { ...LETTER_RETRY, ...call.tuning, budgetMs: call.budgetMs, failures: FAILURES },
  );
  if (!outcome.ok) return { ok: false, failure: { ...outcome.error, attempts } };
  const { message, requestId } = outcome.value;
  return { ok: true, value: { message, usage: usageOf(message), attempts, ...(requestId ? { requestId } : {}) } };
}

export interface AnthropicModelOptions {
  /** The model id every request names. */
  model: string;
  /** The key, read when a message is sent (a failure is answered as it is, before any call). */
  apiKey: () => Promise<Result<string>>;
  baseURL?: string;
  /** Whether this is the built-in sandbox (for the log line). */
  sandbox: boolean;
  /** The retry policy's clock and sleep (the runtime's clock in production; tests inject their own). */
  tuning?: MessagesCall['tuning'];
}

/**
 * The language model port's adapter for the Anthropic Messages API (lib/runtime/model.ts): written
 * against this module's own types; the compiler checks it fits the port where lib/runtime wires it.
 *
 * @example
 * ```ts
 * const model = anthropicModel({ model: 'claude-sonnet-4-5', apiKey: async () => ok(key), sandbox: false });
 * const sent = await model.message({ request, budgetMs: 25_000 });
 * ```
 */
export function anthropicModel(options: AnthropicModelOptions) {
  return {
    id: options.model,
    sandbox: options.sandbox,
    async message(call: { request: MessageRequest; budgetMs: number }): Promise<Result<MessagesResult>> {
      const apiKey = await options.apiKey();
      if (!apiKey.ok) return apiKey;
      return ok(
        await createMessage({
          apiKey: apiKey.value,
          ...(options.baseURL ? { baseURL: options.baseURL } : {}),
          budgetMs: call.budgetMs,
          request: call.request,
          ...(options.tuning ? { tuning: options.tuning } : {}),
        }),
      );
    },
  };
}
