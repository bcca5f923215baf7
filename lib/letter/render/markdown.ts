import { type Block, type Run, type Citation, escapeInline, escapeLineStart, escapeMarkdown, type LetterMetadata } from '../compose/index.js';
import { formatLetterDate } from './date.js';
import { criteriaMarkdown, type PayerSections } from './criteria-sections.js';
import { reBlockLines, sourceLines } from './sections.js';

/**
 * The whole letter as markdown (docs/letter.md#layout): letterhead, "Re:" block, patient
 * information, the body, source documentation, signature. Everything but the body comes from the
 * request; the body is written back from its parsed blocks (never the model's raw text), so both are
 * escaped by the same rules and nothing can add links, images, HTML or structure.
 */

export const LETTER_TITLE = 'Letter of Medical Necessity';

/** The title by letter type (docs/letter.md#letter-types); a letter without a type is a Letter of Medical Necessity. */
const TITLES = { medical_necessity: LETTER_TITLE, prior_authorization: 'Prior Authorization Request', appeal: 'Appeal of Denied Coverage' } as const;
export const letterTitle = (meta: Pick<LetterMetadata, 'letter_type'>): string => TITLES[meta.letter_type ?? 'medical_necessity'];
export const SOURCES_TITLE = 'Source documentation';

const DELIMITER: Record<Run['style'], string> = { regular: '', bold: '**', italic: '*', boldItalic: '***' };

/** Runs as inline markdown; `plainStyle` is the style a heading already implies (bold). */
function inline(runs: Run[], plainStyle: Run['style'] = 'regular'): string {
  return runs
    .map((run, index) => {
      if (run.marker) return run.text;
      let text = escapeInline(run.text);
      if (index === 0) text = escapeLineStart(text);
      const style = run.style === plainStyle ? 'regular' : plainStyle === 'bold' && run.style === 'boldItalic' ? 'italic' : run.style;
      const delimiter = DELIMITER[style];
      if (!delimiter) return text;
      // Emphasis cannot open or close next to a space: keep the outer spaces outside the marks.
      const [, lead, core, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!;
      return core ? `${lead}${delimiter}${core}${delimiter}${trail}` : text;
    })
    .join('');
}

/** The body's blocks as markdown: a blank line between blocks, list items of one list together. */
function writeBlocks(blocks: Block[]): string {
  const out: string[] = [];
  let previous: Block | undefined;
  for (const block of blocks) {
    const sameList = previous?.kind === 'item' && block.kind === 'item' && (block.depth === 1 || previous.ordered === block.ordered);
    if (out.length && !sameList) out.push('');
    switch (block.kind) {
      case 'heading':
        out.push(`${'#'.repeat(Math.max(block.level, 2))} ${inline(block.runs, 'bold')}`);
        break;
      case 'paragraph':
        out.push(inline(block.runs));
        break;
      case 'item':
        out.push(`${block.depth ? '    ' : ''}${block.ordered ? block.marker : '-'} ${inline(block.runs)}`);
        break;
      case 'rule':
        out.push('---');
        break;
    }
    previous = block;
  }
  return out.join('\n');
}

export interface LetterContent {
  meta: LetterMetadata;
  body: Block[];
  citations: Citation[];
  generatedAt: Date;
  /** Policy-grounded letters only (docs/letter.md#letter-types); other documents (an eligibility printout) leave it out. */
  payer?: PayerSections;
}

export function assembleLetter({ meta, body, citations, generatedAt, payer }: LetterContent): string {
  const e = (value: string) => escapeMarkdown(value);
  // Two trailing spaces are markdown hard line breaks: one block, one value per line.
  const lines = (pairs: Array<[string, string]>) => pairs.map(([label, value], i) => `${label}: ${e(value)}${i < pairs.length - 1 ? '  ' : ''}`);
  const sources = sourceLines(citations, payer);
  return [
    `# ${e(meta.facility_name)}`,
    '',
    ...lines([
      ['Phone', meta.provider_phone],
      ['E-mail', meta.provider_email],
    ]).map((line) => `${line.trimEnd()}  `),
    `Date: ${formatLetterDate(generatedAt)}`,
    '',
    `## ${letterTitle(meta)}`,
    '',
    '**Re:**  ',
    ...lines(reBlockLines(meta)),
    '',
    '### Patient Information',
    '',
    `- **Name:** ${e(meta.patient_name)}`,
    `- **Age:** ${e(meta.patient_age)}`,
    `- **Patient identifier:** ${e(meta.patient_identifier)}`,
    '',
    '---',
    '',
    ...criteriaMarkdown(payer, 'before'),
    writeBlocks(body),
    '',
    ...criteriaMarkdown(payer, 'after'),
    ...(sources.length ? [`### ${SOURCES_TITLE}`, '', ...sources.map(({ label, text }) => `- ${label} “${escapeMarkdown(text)}”`), ''] : []),
    '---',
    '',
    'Sincerely,',
    '',
    `${escapeMarkdown(meta.provider_signature, true)}  `,
    escapeMarkdown(meta.provider_name, true),
    '',
  ].join('\n');
}
