import { apiHandler, streamingHandler } from '../../lib/http/index.js';
import { type LetterRecipe, letterRoute, renderLetterAnswer } from '../../lib/letter/index.js';
import { runtimeFromEnv, withModel } from '../../lib/runtime/index.js';

const runtime = withModel(runtimeFromEnv());

/**
 * POST /api/generate-letter, streamed (docs/runtime.md#streamed-letter): the gateway's 30 s cut does not apply,
 * so the model gets up to 120 s; the client still receives one JSON document. A letter too large to
 * store under its Idempotency-Key is stored as its render recipe and re-rendered on replay.
 */
export const handler = streamingHandler(
  apiHandler('letter', 'letter', letterRoute(runtime, { budgetMs: runtime.config.letterBudgetMs }), {
    idempotencyTable: runtime.config.idempotencyTable,
    expand: (recipe) => renderLetterAnswer(recipe as LetterRecipe),
  }),
);
