/**
 * Adapters to the upstreams (docs/architecture.md#ports-and-adapters): the clearinghouse (Stedi: raw X12,
 * COB, payer search), the Anthropic Messages API, their one retry policy and capped body reading. Base
 * URL, key and budget are arguments; nothing here knows a domain folder.
 *
 * @example
 * ```ts
 * import { timerSleep } from '../upstream/index.js';
 * await timerSleep(10); // the retry policy's real sleep; tests inject their own
 * ```
 */

export {
  anthropicModel,
  type AnthropicModelOptions,
  createMessage,
  type Message,
  type MessageRequest,
  type MessagesFailure,
  type MessagesFailureKind,
  type MessagesResult,
} from './anthropic.js';
export { stediClearinghouse } from './clearinghouse.js';
export { isJsonObject, type JsonObject } from './json.js';
export { timerSleep, type Sleep } from './retry.js';
export { readPayerRecord, type StediPayerRecord } from './stedi-payers.js';
