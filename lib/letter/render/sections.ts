import { parseLetterMarkdown, runsText, type Citation, type LetterMetadata } from '../compose/index.js';
import type { PayerSections } from './criteria-sections.js';

/**
 * What the markdown and the PDF both show besides the body, decided once so the two cannot drift:
 * the "Re:" block (each line only when the request gave it) and the source documentation list.
 */

export function reBlockLines(meta: LetterMetadata): Array<[label: string, value: string]> {
  const lines: Array<[string, string | undefined]> = [
    ['Patient', meta.patient_name],
    ['Date of birth', meta.patient_dob],
    ['Member ID', meta.member_id],
    ['Payer', meta.payer_name],
    ['Provider NPI', meta.provider_npi],
    ['Payer policy', meta.policy_name],
  ];
  return lines.filter((line): line is [string, string] => typeof line[1] === 'string' && line[1].trim() !== '');
}

/** Quotes in the letter are shorter than the response's `citedText`: enough to find the passage. */
const SOURCE_QUOTE_CHARS = 160;

/** The notes' passages, then the policy's ("policy p. 3:") and the denial's ("denial p. 1:"). */
export function sourceLines(citations: Citation[], payer?: PayerSections): Array<{ label: string; text: string }> {
  const all = [
    ...citations.map((citation) => ({ ...citation, document: '' })),
    ...(payer?.policyCitations ?? []).map((citation) => ({ ...citation, document: 'policy ' })),
    ...(payer?.denialCitations ?? []).map((citation) => ({ ...citation, document: 'denial ' })),
  ];
  return all.map(({ page, citedText, document }) => {
    // The passage is the notes' text: read like the body, so markup in the notes is not quoted as markup.
    const text = parseLetterMarkdown(citedText)
      .map((block) => (block.kind === 'rule' ? '' : runsText(block.runs)))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    return { label: `${document}p. ${page}:`, text: text.length > SOURCE_QUOTE_CHARS ? `${text.slice(0, SOURCE_QUOTE_CHARS - 1).trimEnd()}…` : text };
  });
}
