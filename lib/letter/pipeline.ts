import { type Clock, systemClock } from '../config/index.js';
import { fail, ok, serviceError, type Result, type ServiceError } from '../errors/index.js';
import type { SafeLogFields } from '../logging/index.js';
import type { LanguageModel, MessagesFailure, MessagesFailureKind } from '../runtime/index.js';
import type { LetterRequest } from '../validation/index.js';
import { parseLetterMarkdown, checkLetterBody, MAX_CITATIONS, readCitedText, verifyCodes, buildLetterRequest } from './compose/index.js';
import { readProcedureNotes, searchNotes, textLayerOf } from './intake/index.js';
import { renderLetterAnswer, type LetterRecipe } from './answer.js';
import { checkCriteria, readPayerDocuments } from './criteria-step.js';
import { citationNotFoundNotice, citationsLimitedNotice, notMachineReadableNotice, unverifiedCodeNotices } from './notices.js';
import type { LetterResponse, Notice } from './types.js';

/**
 * The letter, step by step (docs/letter.md): read the notes → prompt → call the model → check its
 * answer → keep the citations the notes bear out → verify its codes against the notes → render
 * markdown or a PDF. Each step is its own module; this one only orders them. The notes' page count
 * and text layer are read together, in an isolated worker, before the model is called.
 */

export interface LetterAi {
  /** The model port (docs/architecture.md#ports-and-adapters): the runtime's, or in tests one aimed at a fake. */
  model: LanguageModel;
  /** Time for every model attempt and wait, in ms (the route decides: the letter route streams). */
  budgetMs: number;
}

export interface LetterOutcome {
  result: Result<LetterResponse>;
  /** For the request's one log line: counts and ids only, never text. */
  log: SafeLogFields;
  /** What the answer renders from, byte for byte (an Idempotency-Key replay re-renders it: ./answer.ts). */
  recipe?: LetterRecipe;
}

/** How a failed model call reads to the caller. */
const AI_FAILURES: Record<MessagesFailureKind, (failure: MessagesFailure) => ServiceError> = {
  'no-key': () => serviceError('CONFIGURATION_ERROR', { message: 'No AI service key is configured' }),
  credentials: () => serviceError('CONFIGURATION_ERROR', { message: 'The AI service rejected the configured credentials' }),
  unavailable: (f) => serviceError('AI_UNAVAILABLE', f.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: f.retryAfterSeconds }),
  timeout: () => serviceError('UPSTREAM_TIMEOUT', { message: 'The AI service did not answer in time' }),
  rejected: () => serviceError('LETTER_NOT_GENERATED', { message: 'The AI service could not process this document' }),
  'unexpected-status': (f) => serviceError('UPSTREAM_ERROR', { message: `The AI service answered with an unexpected status ${f.status}` }),
  unreadable: () => serviceError('UPSTREAM_ERROR', { message: 'The AI service answer could not be read' }),
  'too-long': () => serviceError('LETTER_NOT_GENERATED', { message: 'The AI output was far longer than any letter (over 1 MiB) and was stopped' }),
};

/** `clock` dates the letter (docs/architecture.md#time): the system clock in production, a fixed one in tests. */
export async function generateLetter(request: LetterRequest, ai: LetterAi, clock: Clock = systemClock): Promise<LetterOutcome> {
  const { file_content, output_format, policy_file_content, denial_file_content, ...meta } = request;
  const log: SafeLogFields = { upstream: 'anthropic' };

  const notes = await readProcedureNotes(file_content);
  if (!notes.ok) return { result: notes, log: {} };
  // The payer's policy and the denial: the same gate and limits, refusals naming their field.
  const payer = await readPayerDocuments(request);
  if (!payer.ok) return { result: payer, log: {} };

  const started = performance.now();
  const sent = await ai.model.message({ request: buildLetterRequest(ai.model.id, notes.value.base64, meta, payer.value.documents), budgetMs: ai.budgetMs });
  // No key: nothing was sent, and the answer is the configuration error alone.
  if (!sent.ok) return { result: sent, log: {} };
  const answer = sent.value;
  log.upstreamMs = Math.round(performance.now() - started);
  if (!answer.ok) {
    const { failure } = answer;
    return {
      result: fail(AI_FAILURES[failure.kind](failure)),
      log: { ...log, attempts: failure.attempts, ...(failure.requestId ? { traceId: failure.requestId } : {}) },
    };
  }
  const { message, usage, attempts, requestId } = answer.value;
  Object.assign(log, {
    attempts,
    ...(requestId ? { traceId: requestId } : {}),
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheReadTokens: usage.cacheReadTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
  } satisfies SafeLogFields);

  const layer = textLayerOf(notes.value.text);
  // Letters trust only the notes: citations are checked against the text layer, codes too.
  // One search over the notes, shared: each index is built once, on first use.
  const search = searchNotes(layer.pages);
  const notesEvidence = { pages: layer.pages, pageCount: notes.value.pages, search };
  // Criteria, denial and requested services first (docs/letter.md#the-criteria-layout): the body is what is left.
  const sections = checkCriteria(message, payer.value, notesEvidence);
  const cited = readCitedText(sections.body, notesEvidence, payer.value.others);
  const checked = checkLetterBody(cited.text, message.stop_reason);
  if (!checked.ok) return { result: checked, log };
  // The request's own values (member id, cost, phone…) are not codes when the model repeats them.
  const supplied = Object.values(meta).filter((value): value is string => typeof value === 'string');
  const verified = verifyCodes(parseLetterMarkdown(checked.value), { pages: layer.pages, supplied, search });

  const notices: Notice[] = [
    ...(cited.notFound + sections.notFound > 0 ? [citationNotFoundNotice(cited.notFound + sections.notFound)] : []),
    ...sections.notices,
    ...(cited.overLimit > 0 ? [citationsLimitedNotice(cited.overLimit, MAX_CITATIONS)] : []),
    ...unverifiedCodeNotices(verified.removed),
    ...(layer.pages === null ? [notMachineReadableNotice()] : []),
  ];
  const recipe: LetterRecipe = {
    format: output_format === 'pdf' ? 'pdf' : 'text',
    content: {
      meta,
      body: verified.blocks,
      citations: cited.citations,
      generatedAt: new Date(clock.now()).toISOString(),
      ...(payer.value.documents
        ? {
            payer: {
              policyCitations: cited.policyCitations,
              denialCitations: cited.denialCitations,
              criteria: sections.criteria,
              services: sections.services,
              denial: sections.denial,
            },
          }
        : {}),
    },
    ...(sections.criteria ? { criteria: sections.criteria, missingEvidence: sections.missingEvidence ?? [] } : {}),
    ...(sections.denial ? { denial: sections.denial } : {}),
    codes: verified.codes,
    notices,
  };
  const body = await renderLetterAnswer(recipe);
  Object.assign(log, {
    citations: cited.citations.length,
    codesRemoved: verified.removed.length,
    notices: body.notices.map((n) => n.code),
  } satisfies SafeLogFields);
  return { result: ok(body), log, recipe };
}
