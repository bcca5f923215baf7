import type { Notice } from './types.js';

/**
 * What the caller should know about a letter that was still written (docs/letter.md#response).
 * Messages name codes (not patient data) and counts, never text from the notes or the letter.
 */

/** Lists in a response are capped (no answer grows without bound). */
const MAX_CODE_NOTICES = 50;

export const unverifiedCodeNotices = (codes: string[]): Notice[] =>
  codes.slice(0, MAX_CODE_NOTICES).map((code) => ({
    code: 'UNVERIFIED_CODE_REMOVED',
    message: `Code ${code} does not appear in the procedure notes, so it was removed from the letter`,
  }));

export const notMachineReadableNotice = (): Notice => ({
  code: 'NOTES_NOT_MACHINE_READABLE',
  message: 'The procedure notes have no text layer (a scan?), so the codes and the cited passages in the letter could not be checked against them',
});

export const glyphsReplacedNotice = (count: number): Notice => ({
  code: 'GLYPHS_REPLACED',
  message: `${count} character${count === 1 ? '' : 's'} had no glyph in any bundled font and ${count === 1 ? 'is' : 'are'} drawn as U+FFFD in the PDF`,
});

export const citationNotFoundNotice = (count: number): Notice => ({
  code: 'CITATION_NOT_FOUND',
  message: `${count} citation${count === 1 ? ' was' : 's were'} dropped: the page or the cited text is not in the procedure notes`,
});

export const citationsLimitedNotice = (count: number, limit: number): Notice => ({
  code: 'CITATIONS_LIMITED',
  message: `Only the first ${limit} cited passages are kept; ${count} more ${count === 1 ? 'was' : 'were'} dropped`,
});

export const criteriaDroppedNotice = (count: number): Notice => ({
  code: 'CITATION_NOT_FOUND',
  message: `${count} criteri${count === 1 ? 'on was' : 'a were'} dropped: the cited text is not in the payer's policy`,
});

/** Criteria are the policy's words, not patient data; the list is capped like every list in a response. */
export const criteriaNotMetNotice = (criteria: string[]): Notice => ({
  code: 'CRITERIA_NOT_MET',
  message: `The notes do not meet ${criteria.length} of the policy's criteria (the letter is still written; decide whether to send it): ${criteria
    .slice(0, 10)
    .map((criterion) => `“${criterion.length > 120 ? `${criterion.slice(0, 119)}…` : criterion}”`)
    .join('; ')}`,
});

export const unverifiedServiceNotices = (codes: string[]): Notice[] =>
  codes.slice(0, MAX_CODE_NOTICES).map((code) => ({
    code: 'UNVERIFIED_CODE_REMOVED',
    message: `Requested service ${code} does not appear in the procedure notes, so it was left out of the letter`,
  }));
