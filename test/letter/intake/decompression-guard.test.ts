import { describe, expect, it } from '@jest/globals';
import { deflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { checkPdfDecompression, MAX_DECOMPRESSED_BYTES } from '../../../lib/letter/intake/decompression-guard.js';
import { readProcedureNotes } from '../../../lib/letter/intake/input.js';
import { assemblePdf, BOMB_SHAPES, makeBomb, scannedPdf, zlibZeros } from '../../fixtures/letter/bombs.js';
import { procedureNotesPdf, toBase64 } from '../../fixtures/letter/pdfs.js';

const MIB = 1024 * 1024;
/** More streams than this are refused unmeasured (docs/security.md#pdf-bombs: more than 20,000). */
const MAX_STREAMS = 20_000;
const onePage = (contentDict: string, stream: Buffer, more: Array<{ dict: string; stream?: Buffer }> = []) =>
  assemblePdf([
    { dict: '<< /Type /Catalog /Pages 2 0 R >>' },
    { dict: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
    { dict: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>' },
    { dict: contentDict, stream },
    ...more,
  ]);

describe('the PDF decompression guard', () => {
  it.each(BOMB_SHAPES)('refuses the %s bomb (256 MiB inflated) once 64 MiB have come out', async (shape) => {
    const pdf = await makeBomb(shape, 256);
    const result = await checkPdfDecompression(pdf);
    expect(result).toMatchObject({ ok: false, reason: 'too-much-data' });
    expect(result.decompressedBytes).toBeGreaterThan(MAX_DECOMPRESSED_BYTES);
    // Counted as it inflates: it stops within one chunk of the cap, never at the bomb's full size.
    expect(result.decompressedBytes).toBeLessThan(MAX_DECOMPRESSED_BYTES + MIB);
  });

  it('counts every byte of a stream under the cap, and refuses one byte more', async () => {
    const pdf = onePage('/Filter /FlateDecode', deflateSync(Buffer.alloc(3 * MIB)));
    expect(await checkPdfDecompression(pdf, 3 * MIB)).toEqual({ ok: true, decompressedBytes: 3 * MIB, streams: 1 });
    expect(await checkPdfDecompression(pdf, 3 * MIB - 1)).toMatchObject({ ok: false, reason: 'too-much-data' });
  });

  it('adds up many small streams', async () => {
    const pdf = await makeBomb('many-small-streams', 96);
    expect(await checkPdfDecompression(pdf)).toMatchObject({ ok: false, reason: 'too-much-data' });
    const underCap = await makeBomb('many-small-streams', 32);
    expect(await checkPdfDecompression(underCap)).toMatchObject({ ok: true, streams: 1024, decompressedBytes: 32 * MIB });
  });

  it('reads the dictionary around nested dictionaries, strings holding ">>", comments and escaped names', async () => {
    const data = deflateSync(Buffer.alloc(2 * MIB));
    for (const dict of [
      '/DecodeParms << /Predictor 12 /Columns 5 >> /Filter /FlateDecode',
      '/Note (a >> b << c) /Filter /FlateDecode',
      '/Filter %comment\n/FlateDecode',
      '/Filter /Fl#61teDecode',
      '/Filter [/FlateDecode] /DecodeParms [<< /X << /Y 1 >> >>]',
    ]) {
      expect({ dict, result: await checkPdfDecompression(onePage(dict, data)) }).toEqual({
        dict,
        result: { ok: true, decompressedBytes: 2 * MIB, streams: 1 },
      });
    }
  });

  it('measures every value of a repeated /Filter key, since readers disagree on which wins', async () => {
    const pdf = onePage('/Filter /DCTDecode /Filter /FlateDecode', deflateSync(Buffer.alloc(MIB)));
    expect(await checkPdfDecompression(pdf)).toMatchObject({ ok: true, decompressedBytes: MIB });
  });

  it('probes a stream whose /Filter points at an object it cannot find', async () => {
    const inner = deflateSync(await zlibZeros(80));
    expect(await checkPdfDecompression(onePage('/Filter 77 0 R', inner))).toMatchObject({ ok: false, reason: 'too-much-data' });
  });

  it('measures a stream hidden inside another stream whose /Length skips over it', async () => {
    const bomb = await zlibZeros(80);
    const hidden = Buffer.concat([Buffer.from('\nendstream\nendobj\n9 0 obj\n<< /Filter /FlateDecode >>\nstream\n', 'latin1'), bomb]);
    const pdf = onePage('/Filter /ASCIIHexDecode', Buffer.concat([Buffer.from('41>', 'latin1'), hidden]));
    expect(await checkPdfDecompression(pdf)).toMatchObject({ ok: false, reason: 'too-much-data' });
  });

  it(`refuses a file with more than ${MAX_STREAMS.toLocaleString('en-US')} streams without measuring them`, async () => {
    const tiny = Buffer.from('<< >>\nstream\nx\nendstream\n', 'latin1');
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), ...Array.from({ length: MAX_STREAMS + 1 }, () => tiny)]);
    expect(await checkPdfDecompression(pdf)).toMatchObject({ ok: false, reason: 'too-many-streams' });
  });

  it('passes a 100-page bilevel scan (200 dpi, ~47 MB of pixels) and the generated procedure notes', async () => {
    const scan = scannedPdf(100);
    const result = await checkPdfDecompression(scan);
    expect(result).toMatchObject({ ok: true, streams: 200 });
    expect(result.decompressedBytes).toBeGreaterThan(40 * MIB);
    expect((await PDFDocument.load(scan)).getPageCount()).toBe(100);
    expect(await checkPdfDecompression(await procedureNotesPdf(undefined, 100))).toMatchObject({ ok: true });
  });

  it('is the gate in readProcedureNotes: a bomb is a 413 before pdf-lib sees it, a 100-page scan still reads', async () => {
    const bomb = await readProcedureNotes(toBase64(await makeBomb('objstm-flate-flate', 4096)));
    expect(bomb).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE', status: 413, message: expect.stringMatching(/64 MiB/) } });
    expect(await readProcedureNotes(toBase64(scannedPdf(100)))).toMatchObject({ ok: true, value: { pages: 100 } });
  });
});
