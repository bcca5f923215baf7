/**
 * The one entry the eligibility handler calls with the upstream's X12: tokenize, envelope, 271 loops,
 * then AAA → error or the benefit summary. Never throws on malformed input. `warnings` and
 * `aaaCodes` are safe to log (positions and counts only, no element values).
 */
import { fail, ok, serviceError, type Result } from '../errors/index.js';
import { rejectionsOf } from '../x12/aaa.js';
import { readEnvelope, transactionsOf } from '../x12/envelope.js';
import { readLoops271 } from '../x12/loops271.js';
import { tokenize } from '../x12/tokenizer.js';
import { errorForRejections } from './rejections.js';
import { summarize } from './summary.js';
import type { BenefitSummary } from './types.js';

export interface Interpretation {
  result: Result<BenefitSummary>;
  warnings: string[];
  aaaCodes: string[];
}

const unreadable = (message: string) => serviceError('UPSTREAM_ERROR', { message });

export function interpret271(x12: string): Interpretation {
  const tokens = tokenize(x12);
  if (!tokens.ok) {
    return {
      result: fail(unreadable('The payer reply is not readable X12')),
      warnings: [...tokens.warnings, `offset ${tokens.error.offset}: ${tokens.error.message}`],
      aaaCodes: [],
    };
  }
  const envelope = readEnvelope(tokens.segments);
  const warnings = [...tokens.warnings, ...envelope.warnings];
  const transactions = transactionsOf(envelope);
  const responses = transactions.filter((t) => t.setId === '271');
  const response = responses[0];
  if (!response) {
    const acknowledged = transactions.some((t) => t.setId === '999');
    if (acknowledged) warnings.push('reply is a 999 acknowledgment: the 270 was rejected');
    return {
      result: fail(unreadable(acknowledged ? 'The clearinghouse rejected the inquiry (999)' : 'The payer reply has no 271 transaction')),
      warnings,
      aaaCodes: [],
    };
  }
  if (responses.length > 1) warnings.push(`${responses.length} 271 transaction sets; the first is used`);

  const doc = readLoops271(response);
  warnings.push(...doc.warnings);
  const rejections = rejectionsOf(doc);
  const aaaCodes = rejections.map((r) => r.code);
  if (rejections.length > 0) return { result: fail(errorForRejections(rejections)), warnings, aaaCodes };
  if (!doc.levels.some((l) => l.level === 'C')) {
    return { result: fail(unreadable('The payer reply has no subscriber loop')), warnings, aaaCodes };
  }
  return { result: ok(summarize(doc)), warnings, aaaCodes };
}
