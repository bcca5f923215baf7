/**
 * The one entry the eligibility handler calls with the upstream's X12: read the reply (reply.ts),
 * pick the transaction that answers (docs/eligibility.md#several-transactions), then its AAAs → an
 * error, or the answer. Never throws on malformed input. `warnings` and `aaaCodes` are safe to log
 * (positions and counts only, no element values).
 */
import { fail, ok, serviceError, type Result } from '../errors/index.js';
import { answerOf, answeringTransaction } from './answer.js';
import { errorForRejections } from '../x12/index.js';
import type { SummaryFigures } from './figures.js';
import { presentSummary } from './present.js';
import { readReply, type Reply } from './reply.js';
import type { BenefitSummary, EligibilityQuestion } from './types.js';

export interface Interpretation<T = BenefitSummary> {
  result: Result<T>;
  warnings: string[];
  aaaCodes: string[];
}

const unreadable = (message: string) => serviceError('UPSTREAM_ERROR', { message });

/** The answer with numeric figures (docs/eligibility.md#figures-inside-the-service): what the route computes on. */
export function interpret271Figures(x12: string, question: EligibilityQuestion = {}): Interpretation<SummaryFigures> {
  return interpretReply(readReply(x12), question);
}

/** The answer as the REST body shows it (figures as text). */
export function interpret271(x12: string, question: EligibilityQuestion = {}): Interpretation {
  const read = interpret271Figures(x12, question);
  return read.result.ok ? { ...read, result: ok(presentSummary(read.result.value)) } : (read as Interpretation<never>);
}

/** interpret271Figures after the reading. */
function interpretReply(read: Reply, question: EligibilityQuestion = {}): Interpretation<SummaryFigures> {
  if (!read.ok) {
    return {
      result: fail(unreadable('The payer reply is not readable X12')),
      warnings: [...read.warnings, `offset ${read.error.offset}: ${read.error.message}`],
      aaaCodes: [],
    };
  }
  const warnings = read.warnings;
  const docs = read.transactions;
  if (docs.length === 0) {
    if (read.acknowledged) warnings.push('reply is a 999 acknowledgment: the 270 was rejected');
    return {
      result: fail(unreadable(read.acknowledged ? 'The clearinghouse rejected the inquiry (999)' : 'The payer reply has no 271 transaction')),
      warnings,
      aaaCodes: [],
    };
  }
  const chosen = answeringTransaction(docs, question.memberId);
  if (docs.length > 1) warnings.push(`${docs.length} 271 transaction sets; number ${chosen + 1} is used`);
  const doc = docs[chosen]!;

  for (let i = 0; i < doc.warnings.length; i++) warnings.push(doc.warnings[i]!);
  const rejections = doc.aaa;
  const aaaCodes: string[] = new Array(rejections.length);
  for (let i = 0; i < rejections.length; i++) aaaCodes[i] = rejections[i]!.code;
  if (rejections.length > 0) return { result: fail(errorForRejections(rejections)), warnings, aaaCodes };
  if (!doc.hasSubscriber) {
    return { result: fail(unreadable('The payer reply has no subscriber loop')), warnings, aaaCodes };
  }
  return { result: ok(answerOf(doc, question)), warnings, aaaCodes };
}
