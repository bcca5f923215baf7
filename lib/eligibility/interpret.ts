/**
 * The one entry the eligibility handler calls with the upstream's X12: tokenize, envelope, 271 loops,
 * then AAA → error or the benefit summary. Never throws on malformed input. `warnings` and
 * `aaaCodes` are safe to log (positions and counts only, no element values).
 */
import { fail, ok, serviceError, type Result } from '../errors/index.js';
import { read271 } from './read271.js';
import { errorForRejections } from './rejections.js';
import { summarizeBenefits } from './summary.js';
import type { BenefitSummary } from './types.js';

export interface Interpretation {
  result: Result<BenefitSummary>;
  warnings: string[];
  aaaCodes: string[];
}

const unreadable = (message: string) => serviceError('UPSTREAM_ERROR', { message });

export function interpret271(x12: string): Interpretation {
  // One pass with the same rules and warnings as tokenize → readEnvelope → readLoops271 (read271.ts).
  const read = read271(x12);
  if (!read.ok) {
    return {
      result: fail(unreadable('The payer reply is not readable X12')),
      warnings: [...read.warnings, `offset ${read.error.offset}: ${read.error.message}`],
      aaaCodes: [],
    };
  }
  const warnings = read.warnings;
  const doc = read.doc;
  if (!doc) {
    if (read.acknowledged) warnings.push('reply is a 999 acknowledgment: the 270 was rejected');
    return {
      result: fail(unreadable(read.acknowledged ? 'The clearinghouse rejected the inquiry (999)' : 'The payer reply has no 271 transaction')),
      warnings,
      aaaCodes: [],
    };
  }
  if (read.responses > 1) warnings.push(`${read.responses} 271 transaction sets; the first is used`);

  for (let i = 0; i < doc.warnings.length; i++) warnings.push(doc.warnings[i]!);
  const rejections = doc.aaa;
  const aaaCodes: string[] = new Array(rejections.length);
  for (let i = 0; i < rejections.length; i++) aaaCodes[i] = rejections[i]!.code;
  if (rejections.length > 0) return { result: fail(errorForRejections(rejections)), warnings, aaaCodes };
  if (!doc.hasSubscriber) {
    return { result: fail(unreadable('The payer reply has no subscriber loop')), warnings, aaaCodes };
  }
  return { result: ok(summarizeBenefits(doc.patientBenefits, doc.payerName)), warnings, aaaCodes };
}
