/**
 * Letters of Medical Necessity (docs/letter.md): `POST /api/generate-letter` reads the notes PDF in
 * isolation (./intake), has the model write the clinical body and keeps only what the notes bear out
 * (./compose), and renders the letter as markdown or a PDF (./render). pipeline.ts orders the steps.
 *
 * The only import path into lib/letter for other folders (handlers, the stack, the local sandbox,
 * benches); inside lib/letter each room is reached through its own index.ts.
 *
 * @example
 * ```typescript
 * import { letterRoute, renderLetterAnswer, type LetterRecipe } from '../../lib/letter/index.js';
 *
 * const route = letterRoute(runtime, { budgetMs: runtime.config.letterBudgetMs });
 * // An Idempotency-Key replay of a letter too large to store re-renders it from its recipe:
 * const answer = await renderLetterAnswer(recipe as LetterRecipe);
 * ```
 */

/** The route: key and settings from the runtime, the pipeline, the counts for the log line. */
export { letterRoute } from './route.js';
/** The pipeline itself, for callers that bring their own model settings. */
export { generateLetter, type LetterAi, type LetterOutcome } from './pipeline.js';
/** The 200 body from its recipe, byte for byte the same on every render. */
export { renderLetterAnswer, type LetterRecipe } from './answer.js';
/** The 200 body and its notices. */
export type { LetterResponse, Notice } from './types.js';
/** Reading notes as the route does (the local AI sandbox and the benches use it). */
export { checkPdfDecompression, parseInWorker, readProcedureNotes } from './intake/index.js';
/** The request metadata, and the body reader (the PDF bench renders bodies). */
export { parseLetterMarkdown, type LetterMetadata } from './compose/index.js';
/** The Messages request a letter sends (the criteria bench estimates its tokens offline). */
export { buildLetterRequest, type CriteriaDocuments } from './compose/index.js';
/** The PDF renderer and the font files the stack ships. */
export { renderLetterPdfReport, type RenderedLetter } from './render/index.js';
