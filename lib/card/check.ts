import { serviceError, type ServiceError } from '../errors/index.js';
import { errorResponse, type Route, type RouteOutcome } from '../http/index.js';
import { type CardCheckRequest, type EligibilityRequest, validateBody } from '../validation/index.js';
import type { CardAnswer, PayerMatch } from './types.js';

/**
 * The eligibility check a card request may ask for (docs/finding-coverage.md#check-with-the-card): the
 * card gives the member id, the subscriber's name and, through the best payer match, the payer id;
 * the request gives the rest. The eligibility route runs in process, so the answer is the REST answer.
 */

/**
 * A name as cards print it, "DOE, JANE Q" or "JANE Q DOE": first and last name (middle names and
 * initials dropped); undefined when it is one word.
 */
export function splitName(name: string): { first: string; last: string } | undefined {
  const comma = /^([^,]+),\s*(\S+)/.exec(name);
  if (comma) return { first: comma[2]!, last: comma[1]!.trim() };
  const words = name.split(' ').filter(Boolean);
  return words.length >= 2 ? { first: words[0]!, last: words[words.length - 1]! } : undefined;
}

const missing = (field: string, what: string): ServiceError =>
  serviceError('INVALID_REQUEST', {
    message: 'The card does not show what the eligibility check needs',
    errors: [{ field: `card.${field}`, message: `${what}; run the eligibility check yourself with the value from the card` }],
  });

/** The eligibility answer, or its error body, for the card and the request's `check`. */
export async function checkWithCard(
  eligibility: Route<EligibilityRequest>,
  check: CardCheckRequest,
  card: CardAnswer['card'],
  best: PayerMatch | undefined,
  context: { clientId: string; requestId: string },
): Promise<{ body: unknown; transient: boolean }> {
  const name = card.subscriberName ? splitName(card.subscriberName) : undefined;
  const problem = !card.memberId
    ? missing('memberId', 'could not be read')
    : !best
      ? missing('payerName', 'matches no payer of the directory')
      : !name
        ? missing('subscriberName', 'could not be read as a first and last name')
        : undefined;
  let outcome: RouteOutcome;
  if (problem) outcome = { ok: false, error: problem };
  else {
    const body = {
      patientFirstName: name!.first,
      patientLastName: name!.last,
      patientDOB: check.patientDOB,
      patientMemberId: card.memberId!,
      dateOfCoverage: check.dateOfCoverage,
      payerId: best!.payerId,
      providerId: check.providerId,
      ...(check.serviceTypeCodes ? { serviceTypeCodes: check.serviceTypeCodes } : {}),
      ...(check.estimate ? { estimate: check.estimate } : {}),
    };
    const valid = validateBody('eligibility', body);
    outcome = valid.ok ? await eligibility({ body: valid.value, ...context }) : valid;
  }
  if (outcome.ok) return { body: outcome.body, transient: outcome.transient === true };
  const error = JSON.parse(errorResponse(outcome.error, context.requestId).body) as unknown;
  return { body: error, transient: 'status' in outcome.error && [502, 503, 504].includes(outcome.error.status) };
}
