/**
 * From the notes to the letter's body (docs/letter.md#the-pipeline): the prompt, the checks on the
 * model's answer, its page citations (kept only when the notes bear them out), the billing codes
 * (kept only when the notes hold them), and the markdown body read into blocks with a real parser.
 *
 * The only import path into this folder for the rest of lib/letter and for other folders.
 *
 * @example
 * ```typescript
 * import { checkLetterBody, parseLetterMarkdown, readCitedText, verifyCodes } from './compose/index.js';
 *
 * const cited = readCitedText(message, { pages: layer.pages, pageCount: notes.pages, search });
 * const body = checkLetterBody(cited.text, message.stop_reason);
 * if (!body.ok) return body; // 422 LETTER_NOT_GENERATED
 * const { blocks, codes, removed } = verifyCodes(parseLetterMarkdown(body.value), { pages: layer.pages, search });
 * ```
 */

/** The Messages request for a letter, and the request metadata it carries. */
export { buildLetterRequest, CANNOT_WRITE_SENTINEL, type LetterMetadata, type LetterPromptMetadata } from './prompt.js';
/** Empty, cut off, refused or templated answers → 422. */
export { checkLetterBody } from './check-output.js';
/** The answer's text with citation markers, and the citations the notes bear out (at most MAX_CITATIONS). */
export { MAX_CITATIONS, readCitedText, type Citation, type CitationEvidence, type CitedText, type OtherDocuments } from './citations.js';
/** Every billing code in the body, verified against the notes or removed. */
export { verifyCodes, type CodeEvidence, type CodeReport, type VerifiedBody } from './codes.js';
/** The body's markdown as blocks of styled runs (headings, paragraphs, list items, rules). */
export { citationMarker, parseLetterMarkdown, runsText, type Block, type FontStyle, type Run } from './body-markdown.js';
/** Text that goes into the letter as text: escaping, scheme and link defusing, control characters removed. */
export { cleanModelText, defuseLinks, defuseSchemes, escapeInline, escapeLineStart, escapeMarkdown } from './plain-text.js';
/** Policy-grounded letters: the criteria and denial sections of the answer, the request's extra documents, the denial's codes. */
export {
  CRITERIA_HEADING,
  DENIAL_HEADING,
  readCriteriaAnswer,
  type Criterion,
  type CriterionStatus,
  type CriteriaAnswer,
  type DenialFields,
} from './criteria.js';
export { criteriaDocumentBlocks, criteriaInstructions, type CriteriaDocuments, type LetterType } from './criteria-prompt.js';
export { ADJUSTMENT_CODE_LISTS, checkDenial, type AdjustmentCode, type Denial } from './denial.js';
