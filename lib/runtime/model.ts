/**
 * The language model port (docs/architecture.md#ports-and-adapters): one message to the model that writes
 * letters and reads insurance cards, in the Messages API's terms (the request, the answer, why a call
 * failed), which are the port's vocabulary. Which API answers, with which key and URL, is the adapter's
 * business (lib/upstream/anthropic.ts `anthropicModel`), picked once in ./index.ts; the built-in sandbox
 * Messages API is reached through the same adapter with another base URL.
 */
import type { Result } from '../errors/index.js';
import type { Message, MessageRequest, MessagesFailure, MessagesFailureKind, MessagesResult } from '../upstream/index.js';

export type { Message, MessageRequest, MessagesFailure, MessagesFailureKind, MessagesResult };

export interface LanguageModel {
  /** The model id every request names (`LETTER_MODEL`). */
  readonly id: string;
  /** Whether the built-in sandbox answers: for the log line only. */
  readonly sandbox: boolean;
  /**
   * One message under the upstream policy (one retry for transient failures), every attempt and wait
   * inside `budgetMs`. The adapter reads its own key first: a key that is missing or cannot be read is
   * the outer failure (500 `CONFIGURATION_ERROR`), before any call; the inner result is the call's.
   */
  message(call: { request: MessageRequest; budgetMs: number }): Promise<Result<MessagesResult>>;
}
