import type { LetterRequest, RequestedService } from '../../validation/index.js';
import { CRITERIA_HEADING, DENIAL_HEADING } from './criteria.js';

/**
 * What a prior authorization, an appeal or a policy-grounded letter adds to the request
 * (docs/letter.md#letter-types): the payer's policy and the denial as further cited documents, and
 * the instructions for the fixed plain-text layout the service parses (./criteria.ts).
 */

export type LetterType = NonNullable<LetterRequest['letter_type']>;

/** The further documents, as canonical base64, in the order they follow the notes. */
export interface CriteriaDocuments {
  letterType: LetterType;
  policy?: { base64: string; name?: string };
  denial?: { base64: string };
  services?: RequestedService[];
}

const PURPOSE: Record<LetterType, string> = {
  medical_necessity: 'This is a Letter of Medical Necessity.',
  prior_authorization: 'This is a prior authorization request: the letter asks the payer to authorize the requested services before they are performed.',
  appeal:
    'This is an appeal of a denial: the third document is the denial letter or EOB. Quote the denial reason in the body and answer it directly, criterion by criterion where the policy is given.',
};

/** The layout of the sections after the body (docs/letter.md#the-criteria-layout). */
export function criteriaInstructions(documents: CriteriaDocuments): string {
  const lines = [PURPOSE[documents.letterType]];
  if (documents.policy) {
    lines.push(
      "The second document is the payer's coverage policy. In the body, argue each of the policy's numbered coverage criteria in order, citing the notes for the evidence and the policy for the criterion.",
      `After the body, write a line "${CRITERIA_HEADING}" and then, for each criterion of the policy, in the policy's order:`,
      "CRITERION: <the criterion quoted in the policy's own words, cited from the policy>",
      'STATUS: met | not_met | unclear',
      'EVIDENCE: <what the notes show for it, cited from the notes; "none" when they show nothing>',
      'MISSING: <when not met or unclear: one plain sentence saying what the notes lack>',
      'Never write a criterion the policy does not state; never mark one met without a notes passage that shows it.',
    );
  }
  if (documents.denial) {
    lines.push(
      `Then write a line "${DENIAL_HEADING}" and:`,
      "REASON: <the denial's stated reason, quoted and cited from the denial>",
      'CARC: <the claim adjustment reason codes exactly as the denial writes them, comma-separated, or none>',
      'RARC: <the remittance advice remark codes exactly as the denial writes them, or none>',
      'DEADLINE: <the appeal deadline exactly as the denial states it, or none>',
    );
  }
  if (documents.services?.length) {
    lines.push(
      'The requested services (their codes are listed by the service in a block of their own): ' + documents.services.map((s) => s.code).join(', ') + '.',
    );
  }
  return lines.join('\n');
}

/** The policy and denial document blocks, citations on, after the notes' block. */
export function criteriaDocumentBlocks(documents: CriteriaDocuments) {
  const block = (data: string, title: string) => ({
    type: 'document' as const,
    source: { type: 'base64' as const, media_type: 'application/pdf' as const, data },
    title,
    citations: { enabled: true },
  });
  return [
    ...(documents.policy
      ? [block(documents.policy.base64, documents.policy.name ? `Payer policy: ${documents.policy.name.replace(/\s+/g, ' ').trim()}` : 'Payer policy')]
      : []),
    ...(documents.denial ? [block(documents.denial.base64, 'Denial letter')] : []),
  ];
}
