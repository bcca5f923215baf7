import type { Route } from '../http/index.js';
import type { ModelRuntime } from '../runtime/index.js';
import type { LetterRequest } from '../validation/index.js';
import { generateLetter } from './pipeline.js';

/**
 * POST /api/generate-letter (docs/letter.md): the route runs the pipeline with the runtime's model
 * (which reads its own key when the message is sent), and puts the pipeline's counts (attempts,
 * tokens, citations, notices) on the request's one log line. The time budget is a parameter: the
 * streamed letter route gives the model longer than the 25 s an ordinary API Gateway route allows.
 */
export function letterRoute(runtime: ModelRuntime, options: { budgetMs?: number } = {}): Route<LetterRequest> {
  return async ({ body }) => {
    const { result, log, recipe } = await generateLetter(body, { model: runtime.model, budgetMs: options.budgetMs ?? runtime.config.upstreamBudgetMs });
    const fields = { ...log, ...(log.upstream ? { sandbox: runtime.model.sandbox } : {}) };
    // The recipe lets an Idempotency-Key replay re-render a letter too large to store (./answer.ts).
    return result.ok ? { ok: true, body: result.value, log: fields, ...(recipe ? { compact: recipe } : {}) } : { ok: false, error: result.error, log: fields };
  };
}
