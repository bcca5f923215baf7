import { eligibilityRoute } from '../eligibility/index.js';
import { serviceError, type ErrorCode, type ServiceError } from '../errors/index.js';
import type { Route } from '../http/index.js';
import type { PayerDirectory } from '../payers/index.js';
import type { MessagesFailure, MessagesFailureKind, ModelRuntime } from '../runtime/index.js';
import type { CardRequest } from '../validation/index.js';
import { checkWithCard } from './check.js';
import { checkImages } from './images.js';
import { cardRequest, readCardAnswer } from './model.js';
import type { CardAnswer, PayerMatch } from './types.js';

/**
 * POST /api/insurance-card/v1 (docs/finding-coverage.md#insurance-card): the images checked from their
 * headers, read by the Messages API with the letter's model and key (one forced tool call), the
 * payer directory searched with the card's payer name and, with `check`, the eligibility route run
 * in process. The images are never stored and never logged; the log line holds counts only.
 */

export const CONFIRM_CARD_FIELDS = {
  code: 'CONFIRM_CARD_FIELDS' as const,
  message: 'These fields were read from a photo by an AI model: compare the member id and the other fields with the card before using them.',
};

/** At most this many payer matches. */
const MAX_MATCHES = 5;

/** A failed model call in the service's terms. */
const FAILURE_CODES: Record<MessagesFailureKind, ErrorCode> = {
  'no-key': 'CONFIGURATION_ERROR',
  credentials: 'CONFIGURATION_ERROR',
  unavailable: 'AI_UNAVAILABLE',
  timeout: 'UPSTREAM_TIMEOUT',
  rejected: 'CARD_NOT_READ',
  'unexpected-status': 'UPSTREAM_ERROR',
  'too-long': 'UPSTREAM_ERROR',
  unreadable: 'UPSTREAM_ERROR',
};
const FAILURE_MESSAGES: Partial<Record<MessagesFailureKind, string>> = {
  credentials: 'The Anthropic API key was rejected',
  unavailable: 'The card reading service is busy; try again later',
  rejected: 'The AI service could not read these images as an insurance card',
};

function failureError(failure: MessagesFailure): ServiceError {
  const message = FAILURE_MESSAGES[failure.kind];
  return serviceError(FAILURE_CODES[failure.kind], {
    ...(message ? { message } : {}),
    ...(failure.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: failure.retryAfterSeconds }),
  });
}

const STOP_WORDS = new Set(['of', 'and', 'the', 'inc', 'co']);
const words = (name: string): Set<string> =>
  new Set(
    name
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word && !STOP_WORDS.has(word)),
  );

/** How much two names share: twice the common words over all words (1 when both hold the same words), two decimals. */
export function nameScore(a: string, b: string): number {
  const left = words(a);
  const right = words(b);
  if (left.size + right.size === 0) return 0;
  const common = [...left].filter((word) => right.has(word)).length;
  return Math.round(((2 * common) / (left.size + right.size)) * 100) / 100;
}

/** The directory's best matches for the card's payer name, in its order; none when the directory cannot answer. */
async function payerMatches(directory: PayerDirectory | undefined, payerName: string | undefined): Promise<PayerMatch[]> {
  if (!directory || !payerName) return [];
  const page = await directory.search({ q: payerName, pageSize: MAX_MATCHES });
  if (!page.ok) return [];
  return page.value.payers.slice(0, MAX_MATCHES).map((payer) => ({ payerId: payer.payerId, name: payer.name, score: nameScore(payerName, payer.name) }));
}

export function cardRoute(runtime: ModelRuntime): Route<CardRequest> {
  const eligibility = eligibilityRoute(runtime);
  return async ({ body, clientId, requestId }) => {
    const images = checkImages(body);
    if (!images.ok) return images;
    const sent = await runtime.model.message({ request: cardRequest(runtime.model.id, images.value), budgetMs: runtime.config.upstreamBudgetMs });
    if (!sent.ok) return sent;
    const called = sent.value;
    const log = { upstream: 'anthropic', sandbox: runtime.model.sandbox, attempts: called.ok ? called.value.attempts : called.failure.attempts };
    if (!called.ok) return { ok: false, error: failureError(called.failure), log };
    const usage = { inputTokens: called.value.usage.inputTokens, outputTokens: called.value.usage.outputTokens };
    const reading = readCardAnswer(called.value.message);
    if (!reading.read) return { ok: false, error: serviceError('CARD_NOT_READ'), log: { ...log, ...usage } };

    const matches = await payerMatches(runtime.payers, reading.card.payerName);
    const answer: CardAnswer = { card: reading.card, confidence: reading.confidence, payerMatches: matches, notices: [CONFIRM_CARD_FIELDS] };
    const notices = [CONFIRM_CARD_FIELDS.code];
    if (!body.check) return { ok: true, body: answer, log: { ...log, ...usage, notices } };
    const checked = await checkWithCard(eligibility, body.check, reading.card, matches[0], { clientId, requestId });
    const payerId = matches[0] ? { payerId: matches[0].payerId } : {};
    return {
      ok: true,
      body: { ...answer, eligibility: checked.body },
      log: { ...log, ...usage, notices, ...payerId },
      ...(checked.transient ? { transient: true } : {}),
    };
  };
}
