import type { CodeReport, Criterion, Denial } from './compose/index.js';
import { assembleLetter, type LetterContent } from './render/index.js';
import { glyphsReplacedNotice } from './notices.js';
import type { LetterResponse, Notice } from './types.js';

/**
 * The last step of the letter (docs/letter.md): the checked model output, with the request's
 * metadata and the generation time, rendered as the 200 body. Deterministic: the same recipe gives
 * the same bytes (the PDF's dates are the generation time, pdf-lib's font subset tags come from a
 * fixed seed), so an Idempotency-Key replay of a letter too large to store rebuilds it from this
 * small recipe instead of running the model again (docs/runtime.md#idempotency).
 */

/** Everything the answer is rendered from; JSON (the generation time as ISO text), a few KB. */
export interface LetterRecipe {
  format: 'text' | 'pdf';
  content: Omit<LetterContent, 'generatedAt'> & { generatedAt: string };
  codes: CodeReport;
  /** Notices known before rendering (the PDF may add GLYPHS_REPLACED). */
  notices: Notice[];
  /** Policy-grounded letters (docs/letter.md#letter-types). */
  criteria?: Criterion[];
  missingEvidence?: string[];
  denial?: Denial;
}

export async function renderLetterAnswer(recipe: LetterRecipe): Promise<LetterResponse> {
  const content: LetterContent = { ...recipe.content, generatedAt: new Date(recipe.content.generatedAt) };
  const notices = [...recipe.notices];
  const common = {
    timestamp: recipe.content.generatedAt,
    invoice_cost: content.meta.visit_cost,
    patient_identifier: content.meta.patient_identifier,
    codes: recipe.codes,
    citations: content.citations,
    ...(recipe.criteria ? { criteria: recipe.criteria, missingEvidence: recipe.missingEvidence ?? [] } : {}),
    ...(recipe.denial ? { denial: recipe.denial } : {}),
  };
  if (recipe.format === 'pdf') {
    // Loaded on the first PDF, not at cold start: fontkit, bidi-js and the layout code are only for PDFs.
    const { renderLetterPdfReport } = await import('./render/index.js');
    const rendered = await renderLetterPdfReport(content);
    if (rendered.replacedCharacters > 0) notices.push(glyphsReplacedNotice(rendered.replacedCharacters));
    return { fileContent: Buffer.from(rendered.pdf).toString('base64'), ...common, notices };
  }
  return { letter: assembleLetter(content), ...common, notices };
}
