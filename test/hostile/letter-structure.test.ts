import { describe, expect, it, jest } from '@jest/globals';
import { HOSTILE_PDFS, HOSTILE_SHAPES } from '../fixtures/letter/hostile-pdfs.js';

/**
 * Fake PDFs that cost a parser CPU (4 MB of `<<`, `[` or random bytes after `%PDF-`, deep nesting,
 * huge arrays, overlapping object streams, page-tree DAGs...) are refused by the structural gate
 * before pdf-lib is called at all (docs/security.md#pdf-structure). pdf-lib is replaced by a
 * recorder here: any call to it is a failure, whatever the answer.
 */

const load = jest.fn(async () => {
  throw new Error('pdf-lib was reached');
});
jest.unstable_mockModule('pdf-lib', () => ({ PDFDocument: { load } }));
const { readProcedureNotes } = await import('../../lib/letter/input.js');

describe('hostile PDF structure', () => {
  it.each(HOSTILE_SHAPES)('%s: refused by the structural gate, pdf-lib never called', async (shape) => {
    const { make, status, message } = HOSTILE_PDFS[shape];
    const file = make();
    expect(file.length).toBeLessThanOrEqual(4 * 1024 * 1024);
    load.mockClear();
    const result = await readProcedureNotes(file.toString('base64'));
    expect(load).not.toHaveBeenCalled();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.status).toBe(status);
    expect(result.error.code).toBe(status === 400 ? 'INVALID_FILE' : 'PAYLOAD_TOO_LARGE');
    expect(result.error.message).toMatch(message);
  });
});
