import { describe, expect, it } from '@jest/globals';
import { PDFDocument } from 'pdf-lib';
import { readProcedureNotes } from '../../../lib/letter/intake/input.js';
import { scannedPdf } from '../../fixtures/letter/bombs.js';
import { encryptedPdf, procedureNotesPdf, scannedNotesPdf } from '../../fixtures/letter/pdfs.js';
import { qpdfCheck, qpdfRewrite as qpdf } from '../../support/pdf-tools.js';

/**
 * Real PDFs pass the decompression guard and the isolated parse (docs/security.md#parsing-in-isolation):
 * what pdf-lib writes, what qpdf rewrites them into (object streams, xref streams, linearized, QDF),
 * incremental updates, 100-page scans. Hostile shapes are in test/hostile/letter-structure.test.ts.
 */

const read = (bytes: Uint8Array) => readProcedureNotes(Buffer.from(bytes).toString('base64'));

/** An incremental update as editors write it: a new version of object 1, a second xref and trailer with /Prev. */
function incrementalUpdate(original: Buffer): Buffer {
  const text = original.toString('latin1');
  const prev = Number(/startxref\s+(\d+)/g.exec(text.slice(text.lastIndexOf('startxref')))![1]);
  const root = /\/Root\s+(\d+)\s+0\s+R/.exec(text)![1];
  const size = Number(/\/Size\s+(\d+)/.exec(text)![1]);
  const objectAt = original.length;
  // biome-ignore lint/correctness/noEmptyCharacterClassInRegex: [^] is meant: it matches any character, line breaks included, across the PDF dictionary
  const update = `${root} 0 obj\n${/\d+ 0 obj\s*(<<[^]*?>>)\s*endobj/.exec(text.slice(text.indexOf(`\n${root} 0 obj`)))![1]}\nendobj\n`;
  const xrefAt = objectAt + update.length;
  const tail = `xref\n${root} 1\n${String(objectAt).padStart(10, '0')} 00000 n \ntrailer\n<< /Size ${size} /Root ${root} 0 R /Prev ${prev} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.concat([original, Buffer.from(update + tail, 'latin1')]);
}

describe('readProcedureNotes on real PDFs', () => {
  const cases: Array<[string, () => Promise<Uint8Array>]> = [
    ['pdf-lib notes (object streams)', () => procedureNotesPdf()],
    ['pdf-lib 100 pages', () => procedureNotesPdf(['page'], 100)],
    ['pdf-lib without object streams', async () => (await PDFDocument.load(await procedureNotesPdf())).save({ useObjectStreams: false })],
    ['a scanned page (image, no text layer)', () => scannedNotesPdf()],
    ['a 100-page bilevel scan', async () => scannedPdf(100)],
    ['qpdf object and xref streams', async () => qpdf(await procedureNotesPdf(), ['--object-streams=generate'])],
    ['qpdf linearized', async () => qpdf(await procedureNotesPdf(['page'], 30), ['--linearize'])],
    ['qpdf QDF (uncompressed, annotated)', async () => qpdf(await procedureNotesPdf(), ['--qdf'])],
    ['qpdf classic xref table', async () => qpdf(await procedureNotesPdf(), ['--object-streams=disable'])],
    ['an incremental update', async () => incrementalUpdate(await qpdf(await procedureNotesPdf(), ['--object-streams=disable']))],
  ];

  it.each(cases)('%s passes', async (_name, make) => {
    const bytes = await make();
    expect(await read(bytes)).toMatchObject({ ok: true });
  });

  it('an incremental update is a file pdf-lib still reads', async () => {
    const updated = incrementalUpdate(await qpdf(await procedureNotesPdf(), ['--object-streams=disable']));
    expect((await PDFDocument.load(updated)).getPageCount()).toBe(1);
    // qpdf follows /Prev and the offsets: the update is a well-formed one, not a lucky parse.
    const check = await qpdfCheck(updated);
    expect([check.status, check.stdout]).toEqual([0, expect.stringMatching(/No syntax or stream encoding errors/)]);
  });

  it('an encrypted file is refused as encrypted', async () => {
    expect(await read(encryptedPdf())).toMatchObject({ ok: false, error: { status: 400, message: 'the PDF is encrypted or password-protected' } });
  });

  it('an encrypted file with object streams is still refused as encrypted, not as unreadable', async () => {
    const encrypted = await qpdf(await procedureNotesPdf(), ['--object-streams=generate', '--encrypt', 'user', 'owner', '256', '--']);
    expect(encrypted.toString('latin1')).toMatch(/\/Type\s*\/ObjStm/);
    const result = await readProcedureNotes(encrypted.toString('base64'));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toBe('the PDF is encrypted or password-protected');
  });

  it('counts pages through the tree: 101 pages is a 413', async () => {
    expect(await read(await procedureNotesPdf(['page'], 101))).toMatchObject({ ok: false, error: { status: 413, message: 'the PDF has more than 100 pages' } });
  });

  it('an uncompressed content stream saying "bloodstream", with an indirect /Length, is read', async () => {
    const text = await qpdf(await procedureNotesPdf(['Sepsis: bloodstream infection, upstream source unknown.']), ['--qdf', '--object-streams=disable']);
    expect(text.toString('latin1')).toMatch(/\/Length \d+ 0 R/);
    expect(text.toString('latin1')).toContain('bloodstream');
    expect(await read(text)).toMatchObject({ ok: true, value: { pages: 1 } });
  });

  it('a file with junk after %%EOF (a mail gateway footer) passes', async () => {
    const notes = Buffer.from(await procedureNotesPdf());
    const footer = Buffer.from('\r\n-- \r\nScanned by MailGuard. This message has been checked for viruses.\r\n'.repeat(20), 'latin1');
    expect(await read(Buffer.concat([notes, footer]))).toMatchObject({ ok: true });
  });
});
