import type { Route } from '../http/api-handler.js';
import { log } from '../logging/index.js';
import type { Runtime } from '../runtime/index.js';
import { writeLetterBody } from '../upstream/anthropic.js';
import type { LetterRequest } from '../validation/index.js';
import { readProcedureNotes } from './input.js';
import { assembleLetter } from './markdown.js';
import { renderLetterPdf } from './pdf.js';
import type { LetterMetadata } from './types.js';

/**
 * POST /api/generate-letter (CONTRACT §6): the file is checked before any AI call; the model
 * writes only the clinical body; the service adds header, patient block, date and signature and
 * returns markdown or a PDF.
 */
export function letterRoute(runtime: Runtime): Route<LetterRequest> {
  return async ({ body }) => {
    const { file_content, output_format, ...metadata } = body satisfies LetterRequest & LetterMetadata;
    const notes = await readProcedureNotes(file_content);
    if (!notes.ok) return notes;
    const apiKey = await runtime.anthropicKey();
    if (!apiKey.ok) return apiKey;

    const written = await writeLetterBody({
      apiKey: apiKey.value,
      ...(runtime.config.anthropicBaseUrl ? { baseURL: runtime.config.anthropicBaseUrl } : {}),
      model: runtime.config.letterModel,
      timeoutMs: runtime.config.letterBudgetMs,
      pdfBase64: notes.value.base64,
      metadata,
    });
    log.info('letter upstream', {
      upstream: 'anthropic',
      sandbox: runtime.sandbox.anthropic,
      ...(written.ok ? { attempts: written.value.attempts, ...(written.value.requestId ? { traceId: written.value.requestId } : {}) } : { code: written.error.code }),
    });
    if (!written.ok) return written;

    const generatedAt = new Date();
    const common = { timestamp: generatedAt.toISOString(), invoice_cost: body.visit_cost, patient_identifier: body.patient_identifier };
    if (output_format === 'pdf') {
      const pdf = await renderLetterPdf(metadata, written.value.body, generatedAt);
      return { ok: true, body: { fileContent: Buffer.from(pdf).toString('base64'), ...common } };
    }
    return { ok: true, body: { letter: assembleLetter(metadata, written.value.body, generatedAt), ...common } };
  };
}
