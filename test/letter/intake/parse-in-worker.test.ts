import { describe, expect, it } from '@jest/globals';
import { parseInWorker } from '../../../lib/letter/intake/parse-in-worker.js';
import { PROCEDURE_NOTES_LINES, encryptedPdf, procedureNotesPdf } from '../../fixtures/letter/pdfs.js';

/**
 * Untrusted documents are parsed in isolation (docs/security.md#parsing-in-isolation): pdf-lib and
 * pdf.js run in a worker thread under a heap limit and a deadline of CPU time. The deadline is
 * proven on an injected CPU clock, so no test depends on how fast or busy the machine is.
 */

describe('parseInWorker', () => {
  it("reads the page count and each page's text in a worker", async () => {
    const parsed = await parseInWorker(await procedureNotesPdf(undefined, 2), { maxPages: 100 });
    expect(parsed.kind).toBe('read');
    if (parsed.kind !== 'read') return;
    expect(parsed.pages).toBe(2);
    expect(parsed.text).toHaveLength(2);
    expect(parsed.text![1]).toContain(PROCEDURE_NOTES_LINES[1]!.slice(0, 20));
  });

  it('says encrypted for an encrypted file and unreadable for a damaged one', async () => {
    expect(await parseInWorker(encryptedPdf(), { maxPages: 100 })).toEqual({ kind: 'encrypted' });
    expect(await parseInWorker(Buffer.from('%PDF-1.4\nnot a pdf at all'), { maxPages: 100 })).toEqual({ kind: 'unreadable' });
  });

  it('does not read the text of a file over the page limit', async () => {
    expect(await parseInWorker(await procedureNotesPdf(['page'], 3), { maxPages: 2 })).toEqual({ kind: 'read', pages: 3, text: null });
  });

  it('terminates the worker once the parse has used its CPU time, and says too-complex', async () => {
    // A CPU clock that has moved past the deadline by the first sample after the worker is ready.
    let sampled = 0;
    const cpuMs = () => (sampled++ === 0 ? 0 : 10_000);
    expect(await parseInWorker(await procedureNotesPdf(undefined, 100), { maxPages: 100, deadlineMs: 1_500, cpuMs })).toEqual({ kind: 'too-complex' });
  });
});
