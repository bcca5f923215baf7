/**
 * One short plain-English sentence per tool answer, for the model reading it (docs/mcp.md#answers):
 * the structured content carries everything; the summary names what a front desk asks first.
 * Figures only; it never repeats names, dates of birth or member ids. The figures are quoted as the REST
 * answer formatted them (docs/eligibility.md#figures-inside-the-service): nothing is formatted again.
 *
 * Text that came from a payer (its name, the names of other plans, directory names) is data, not
 * words of ours (docs/mcp.md#payer-text): each piece is stripped of control, bidi and invisible
 * characters, cut to 80 characters, quoted, and marked as the payer's.
 */
import { NOT_AVAILABLE } from '../eligibility/types.js';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
/** Control (Cc), format (Cf: bidi embeddings and isolates, zero-width characters, U+FEFF, …), line and paragraph separators. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu;
/** The most characters of a payer's text a summary quotes. */
export const PAYER_TEXT_MAX = 80;

/** Text without unsafe characters (a run of them, or of white space, becomes one space). */
const stripUnsafe = (value: unknown): string =>
  String(value ?? '')
    .replace(UNSAFE, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** Payer text made safe to show: unsafe characters gone, cut to PAYER_TEXT_MAX characters. */
export function cleanPayerText(value: string): string {
  const characters = Array.from(stripUnsafe(value));
  return characters.length <= PAYER_TEXT_MAX ? characters.join('') : `${characters.slice(0, PAYER_TEXT_MAX - 1).join('')}…`;
}

/** Payer text as a summary quotes it: cleaned, in double quotes (JSON's escaping, so a quote inside cannot close it). */
const quoted = (value: string): string => JSON.stringify(cleanPayerText(value));
const AS_WRITTEN = '(as the payer wrote it)';

const known = (value: unknown): value is string => typeof value === 'string' && value !== '' && value !== NOT_AVAILABLE;

/** "in network: $25.00 copay, $1,500.00 deductible with $320.00 remaining, 20% coinsurance, …" */
function networkPart(label: string, block: unknown): string | undefined {
  const individual = isObject(block) && isObject(block.individual) ? block.individual : undefined;
  if (!individual) return undefined;
  const parts: string[] = [];
  if (known(individual.copay)) parts.push(`${individual.copay} copay`);
  const deductible = isObject(individual.deductible) ? individual.deductible : {};
  if (known(deductible.total)) parts.push(`${deductible.total} deductible${known(deductible.remaining) ? ` with ${deductible.remaining} remaining` : ''}`);
  if (known(individual.coinsurance)) parts.push(`${individual.coinsurance} coinsurance`);
  if (known(individual.stopLoss)) {
    parts.push(`${individual.stopLoss} out-of-pocket maximum${known(individual.stopLossRemaining) ? ` with ${individual.stopLossRemaining} remaining` : ''}`);
  }
  return parts.length > 0 ? `${label}: ${parts.join(', ')}` : undefined;
}

export function eligibilitySummary(body: unknown): string {
  if (!isObject(body)) return 'The eligibility check answered.';
  const status =
    typeof body.coverageStatus === 'string' ? body.coverageStatus : body.message === 'Mock Eligibility check successful.' ? 'Mock answer' : 'Answered';
  const networks = [networkPart('in network', body.inNetwork), networkPart('out of network', body.outNetwork)].filter(Boolean);
  // A dental- or vision-only plan says so first: its figures are not medical ones (docs/eligibility.md#dental-and-vision-only-plans).
  const scope = isObject(body.plan) && (body.plan.scope === 'dental' || body.plan.scope === 'vision') ? ` (${body.plan.scope}-only plan)` : '';
  const sentences = [`${status}${scope}; ${networks.length > 0 ? networks.join('; ') : 'the payer returned no plan-wide figures'}.`];
  if (typeof body.payerName === 'string') sentences.push(`Payer: ${quoted(body.payerName)} ${AS_WRITTEN}.`);
  const estimate = isObject(body.estimate) ? body.estimate : undefined;
  if (estimate && known(estimate.patientOwes))
    sentences.push(
      `Estimate: the patient owes ${estimate.patientOwes}${known(estimate.planPays) ? ` and the plan pays ${estimate.planPays}` : ''} (a guide; the payer adjudicates the claim).`,
    );
  const notices = Array.isArray(body.notices)
    ? body.notices
        .filter(isObject)
        .map((n) => n.code)
        .filter((c): c is string => typeof c === 'string')
    : [];
  if (notices.length > 0) sentences.push(`Notices: ${notices.join(', ')}.`);
  if (isObject(body.cob)) sentences.push(cobSummary(body.cob));
  return sentences.join(' ');
}

const COB_SENTENCES: Record<string, string> = {
  MemberFoundNoCOB: 'No other coverage found: this plan is the only one.',
  CoverageOverlapNoBenefitOverlap: 'Another plan overlaps in time, but not for these benefits.',
  CoverageOverlapExistsNotSubjectToCob: 'Another plan overlaps, but coordination of benefits does not apply to it.',
  CobInstanceExistsPrimacyUndetermined: 'Other coverage exists and which plan pays first is undetermined.',
  CobInstanceExistsPrimacyDetermined: 'Other coverage exists and the payers have determined which pays first.',
};

export function cobSummary(body: unknown): string {
  if (!isObject(body)) return 'The coordination of benefits check answered.';
  if (typeof body.cobCode !== 'string')
    return typeof body.code === 'string' ? `The coordination of benefits part failed (${body.code}).` : 'The coordination of benefits check answered.';
  const others = Array.isArray(body.additionalPlanBenefitInfo) ? body.additionalPlanBenefitInfo.filter(isObject) : [];
  const named = others
    .map((plan) => {
      const primacy = typeof plan.payerPrimacy === 'string' && /^[A-Za-z]{1,40}$/.test(plan.payerPrimacy) ? ` as ${plan.payerPrimacy}` : '';
      return typeof plan.payerName === 'string' ? `${quoted(plan.payerName)}${primacy}` : primacy.trim();
    })
    .filter(Boolean);
  const plans = named.length > 0 ? ` Other plans: ${named.join('; ')} (names as the payers wrote them).` : '';
  return `COB ${safe(body.cobCode)}: ${COB_SENTENCES[body.cobCode] ?? ''}${plans}`.trim();
}

/** A short value from upstream shown unquoted (ids, codes): cleaned and cut the same way. */
const safe = (value: unknown): string => cleanPayerText(String(value ?? ''));

export function payerSearchSummary(body: unknown): string {
  const payers = isObject(body) && Array.isArray(body.payers) ? body.payers.filter(isObject) : [];
  if (payers.length === 0) return 'No payer in the directory matches.';
  const first = payers
    .slice(0, 5)
    .map(
      (p) =>
        `${quoted(String(p.name ?? ''))} (payerId ${safe(p.payerId)}${isObject(p.transactions) ? `, eligibility ${safe(p.transactions.eligibility)}` : ''})`,
    );
  const more = isObject(body) && typeof body.nextPageToken === 'string' ? ' More on the next page (pageToken).' : '';
  return `${payers.length} payer${payers.length === 1 ? '' : 's'} found (names as the directory lists them): ${first.join('; ')}${payers.length > 5 ? '; …' : ''}.${more}`;
}

/** One AAA rejection as the model reads it: "AAA 72 Invalid/Missing Subscriber/Insured ID (follow-up C: Please Correct and Resubmit)". */
function rejectionText(rejection: Json): string {
  const description = typeof rejection.description === 'string' && rejection.description !== '' ? ` ${stripUnsafe(rejection.description)}` : '';
  const followUp =
    typeof rejection.followUpAction === 'string' && rejection.followUpAction !== '' ? ` (follow-up ${stripUnsafe(rejection.followUpAction)})` : '';
  return `AAA ${safe(rejection.code)}${description}${followUp}`;
}

/**
 * The error as the tool reports it: "CODE: message" and, as the REST body carries them, each field's
 * problem (validation) or the payer's AAA reasons (PAYER_REJECTED and the other payer rejections).
 */
export function errorSummary(body: Json): string {
  const head = typeof body.code === 'string' ? `${body.code}: ${stripUnsafe(body.message)}` : stripUnsafe(body.message);
  const fields = Array.isArray(body.errors) ? body.errors.filter(isObject).map((e) => `${e.field} ${e.message}`) : [];
  const reasons = Array.isArray(body.rejections) ? body.rejections.filter(isObject).map(rejectionText) : [];
  const details = [...fields, ...reasons];
  return details.length > 0 ? `${head} (${details.join('; ')})` : head;
}
