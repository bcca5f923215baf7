import type { LetterContent } from './markdown.js';
import type { RenderedLetter } from './pdf.js';

/**
 * The letter as the caller receives it (docs/letter.md#layout): the whole letter in markdown, or a
 * US Letter PDF with the same sections, every script drawn with an embedded font
 * (docs/letter.md#fonts). The PDF code (fontkit, bidi, layout) is loaded on the first PDF, not with
 * this module.
 *
 * The only import path into this folder for the rest of lib/letter and for other folders.
 *
 * @example
 * ```typescript
 * import { assembleLetter, renderLetterPdfReport } from './render/index.js';
 *
 * const content = { meta, body: blocks, citations, generatedAt: new Date(clock.now()) };
 * const letter = assembleLetter(content); // markdown
 * const { pdf, replacedCharacters } = await renderLetterPdfReport(content); // PDF bytes, glyphs replaced by U+FFFD
 * ```
 */

/** The markdown letter, and what both outputs are rendered from. */
export { assembleLetter, LETTER_TITLE, letterTitle, SOURCES_TITLE, type LetterContent } from './markdown.js';
/** What a policy-grounded letter adds: requested services, the denial, the criteria table. */
export type { PayerSections } from './criteria-sections.js';
/** The font files of the fallback chain (the stack copies them beside the bundle) and their bundled names. */
export { ALL_FONT_FILES, bundledName, type FontFile } from '../../pdf/index.js';
export type { RenderedLetter } from './pdf.js';

/** The PDF letter and how many characters no bundled font has; the PDF code is imported on first use. */
export async function renderLetterPdfReport(content: LetterContent): Promise<RenderedLetter> {
  const { renderLetterPdfReport: render } = await import('./pdf.js');
  return render(content);
}
