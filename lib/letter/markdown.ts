import { formatLetterDate } from './date.js';
import type { LetterMetadata } from './types.js';

/**
 * The whole letter as markdown (CONTRACT §6): letterhead, patient block, the AI body, signature.
 * Everything but the body comes from the request, escaped so a value cannot add headings, lists,
 * links, emphasis or HTML.
 */

export const LETTER_TITLE = 'Letter of Medical Necessity';

/** Escapes inline markdown and HTML; folds line breaks so a value stays on its line. */
export function escapeMarkdown(value: string): string {
  return value
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_{}[\]()<>#|~]/g, (char) => `\\${char}`)
    .replace(/^(\d+)\./, '$1\\.')
    .replace(/^([-+=])/, '\\$1');
}

export function assembleLetter(meta: LetterMetadata, body: string, date: Date): string {
  const e = escapeMarkdown;
  // Two trailing spaces are markdown hard line breaks: one block, one value per line.
  return [
    `# ${e(meta.facility_name)}`,
    '',
    `Phone: ${e(meta.provider_phone)}  `,
    `E-mail: ${e(meta.provider_email)}  `,
    `Date: ${formatLetterDate(date)}`,
    '',
    `## ${LETTER_TITLE}`,
    '',
    '### Patient Information',
    '',
    `- **Name:** ${e(meta.patient_name)}`,
    `- **Age:** ${e(meta.patient_age)}`,
    `- **Patient identifier:** ${e(meta.patient_identifier)}`,
    '',
    '---',
    '',
    body.trim(),
    '',
    '---',
    '',
    'Sincerely,',
    '',
    `${e(meta.provider_signature)}  `,
    e(meta.provider_name),
    '',
  ].join('\n');
}
