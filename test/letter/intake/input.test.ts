import { describe, it, expect, beforeAll } from '@jest/globals';
import { readProcedureNotes } from '../../../lib/letter/intake/input.js';
import { encryptedPdf, procedureNotesPdf, toBase64 } from '../../fixtures/letter/pdfs.js';

/** The largest file_content a letter takes: 4 MiB decoded (docs/api.md#limits). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

let notes: Uint8Array;
beforeAll(async () => {
  notes = await procedureNotesPdf();
});

const expectError = async (input: string, status: number, code: string, message: RegExp) => {
  const result = await readProcedureNotes(input);
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error.status).toBe(status);
  expect(result.error.code).toBe(code);
  expect(result.error.message).toMatch(message);
};

describe('readProcedureNotes', () => {
  it('accepts standard base64 of a PDF and counts its pages', async () => {
    const result = await readProcedureNotes(toBase64(notes));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.pages).toBe(1);
    expect(Buffer.from(result.value.bytes).equals(Buffer.from(notes))).toBe(true);
    expect(result.value.base64).toBe(toBase64(notes));
  });

  it('strips a data URL prefix and tolerates MIME line breaks', async () => {
    const wrapped = toBase64(notes).replace(/.{76}/g, '$&\r\n');
    const result = await readProcedureNotes(`data:application/pdf;base64,${wrapped}`);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value.base64).toBe(toBase64(notes));
  });

  it('rejects an empty string', () => expectError('', 400, 'INVALID_FILE', /empty/));
  it('rejects a bare prefix', () => expectError('data:application/pdf;base64,', 400, 'INVALID_FILE', /empty/));
  it('rejects URL-safe base64 characters', () => expectError(`${toBase64(notes).replace(/.$/, '').slice(0, 40)}-_AA`, 400, 'INVALID_FILE', /standard base64/));
  it('rejects spaces inside the base64', () => expectError('JVBE Ri0x', 400, 'INVALID_FILE', /standard base64/));
  it('rejects padding in the middle', () => expectError('JVB=RiAx', 400, 'INVALID_FILE', /standard base64/));
  it('rejects a missing padding', () => expectError('JVBERi0xLg', 400, 'INVALID_FILE', /padded/));
  it('rejects base64 of something that is not a PDF', () =>
    expectError(Buffer.from('hello, this is plain text').toString('base64'), 400, 'INVALID_FILE', /not a PDF/));
  it('rejects a PDF header followed by garbage', () =>
    expectError(Buffer.from(`%PDF-1.7\n${'garbage '.repeat(50)}`).toString('base64'), 400, 'INVALID_FILE', /could not be read|no pages/));
  it('rejects an encrypted PDF with its own message', () => expectError(toBase64(encryptedPdf()), 400, 'INVALID_FILE', /encrypted/));

  it('rejects more than 100 pages with 413, and accepts exactly 100', async () => {
    await expectError(toBase64(await procedureNotesPdf(['page'], 101)), 413, 'PAYLOAD_TOO_LARGE', /100 pages/);
    const hundred = await readProcedureNotes(toBase64(await procedureNotesPdf(['page'], 100)));
    expect(hundred.ok && hundred.value.pages).toBe(100);
  });

  it('rejects a decoded size over 4 MiB by length, before decoding', async () => {
    const justOver = 'A'.repeat(Math.ceil((MAX_FILE_BYTES + 1) / 3) * 4);
    await expectError(justOver, 413, 'PAYLOAD_TOO_LARGE', /4 MiB/);
    // Over the bound AND not base64 at all: a 413 (not a 400) proves the size is judged from the
    // length before any character scan or decode. (Behaviour, not a timing.)
    const hugeAndInvalid = `${'A'.repeat(64 * 1024 * 1024)}!!!`;
    await expectError(hugeAndInvalid, 413, 'PAYLOAD_TOO_LARGE', /4 MiB/);
    await expectError('AAAA!!!', 400, 'INVALID_FILE', /./);
  });

  it('does not call exactly 4 MiB too large (fails later, as a non-PDF)', async () =>
    expectError(Buffer.alloc(MAX_FILE_BYTES, 0x41).toString('base64'), 400, 'INVALID_FILE', /not a PDF/));

  it('never puts file content in a message', async () => {
    const secret = Buffer.from('%PDF-1.4 Patient SECRETNAME garbage').toString('base64');
    const result = await readProcedureNotes(secret);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(JSON.stringify(result.error)).not.toMatch(/SECRETNAME|JVBER/);
  });
});
