import { describe, expect, it } from '@jest/globals';
import { readProcedureNotes } from '../../lib/letter/intake/input.js';
import { HOSTILE_PDFS, HOSTILE_SHAPES } from '../fixtures/letter/hostile-pdfs.js';

/**
 * Fake PDFs that cost a parser CPU (4 MB of `<<`, `[` or random bytes after `%PDF-`, overlapping
 * object streams, page-tree DAGs, pages of 60 MiB of text operators...) are read by pdf-lib and
 * pdf.js in a worker under a CPU deadline (docs/security.md#parsing-in-isolation): the worker is
 * terminated and the file is a 400 "too complex to read safely". Each shape costs the libraries far
 * more than the deadline, so the answer does not depend on the machine; the deadline here is the
 * injectable one, shorter than production's, to keep the suite quick.
 */

describe('hostile PDF structure', () => {
  it.each(HOSTILE_SHAPES)(
    '%s: refused as the table says, the parse ended by its deadline',
    async (shape) => {
      const { make, status, message } = HOSTILE_PDFS[shape];
      const file = make();
      expect(file.length).toBeLessThanOrEqual(4 * 1024 * 1024);
      const result = await readProcedureNotes(file.toString('base64'), { deadlineMs: 500 });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.status).toBe(status);
      expect(result.error.code).toBe(status === 400 ? 'INVALID_FILE' : 'PAYLOAD_TOO_LARGE');
      expect(result.error.message).toMatch(message);
    },
    60_000,
  );
});
