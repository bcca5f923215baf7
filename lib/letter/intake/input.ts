import { fail, ok, serviceError, type Result } from '../../errors/index.js';
import { checkPdfDecompression, MAX_DECOMPRESSED_BYTES, type DecompressionCheck } from './decompression-guard.js';
import { parseInWorker, type IsolatedParse, type ParseOptions } from './parse-in-worker.js';

/**
 * Turns `file_content` into PDF bytes (docs/letter.md#the-pipeline): standard base64, optional data-URL prefix,
 * at most 4 MiB decoded and 100 pages, not encrypted. Messages name the defect, never the content.
 */

const MAX_FILE_BYTES = 4 * 1024 * 1024;
const MAX_PAGES = 100;

export interface ProcedureNotes {
  /** Canonical base64 (no prefix, no line breaks), ready for the AI document block. */
  base64: string;
  bytes: Uint8Array;
  pages: number;
  /** Each page's text as pdf.js reads it (null when it could not), read in the same isolated parse. */
  text: string[] | null;
}

/** Test seams for the isolated parse (docs/security.md#parsing-in-isolation). */
export type NotesOptions = Pick<ParseOptions, 'deadlineMs' | 'cpuMs' | 'onParsing'> & {
  /** The request field the file came in, named in the refusals (the policy and the denial are read the same way). */
  field?: 'file_content' | 'policy_file_content' | 'denial_file_content';
};

const DATA_URL_PREFIX = /^data:application\/pdf;base64,/i;
// Line breaks are tolerated (MIME encoders wrap at 76 columns); anything else outside the alphabet is not.
const LINE_BREAKS = /[\r\n]/g;
const STANDARD_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
// A PDF header may be preceded by junk, but must sit in the first 1024 bytes (ISO 32000 §7.5.2 note).
const PDF_HEADER = Buffer.from('%PDF-', 'latin1');

const ENCRYPTED = 'the PDF is encrypted or password-protected';

/** Why the decompression guard refused a file, in plain words (a 413: the file is too big inside). */
const GUARD_REFUSALS: Record<Extract<DecompressionCheck, { ok: false }>['reason'], string> = {
  'too-much-data': `the PDF's compressed streams would expand past ${MAX_DECOMPRESSED_BYTES / 1024 / 1024} MiB`,
  'too-many-streams': 'the PDF holds too many streams to check',
  'too-complex': 'the PDF is too complex to check',
};

const TOO_COMPLEX = 'the PDF is too complex to read safely';

/** How the isolated parse's refusals read (its success is handled below). */
const PARSE_REFUSALS: Record<Exclude<IsolatedParse['kind'], 'read'>, string> = {
  encrypted: ENCRYPTED,
  unreadable: 'the PDF could not be read (damaged or not a PDF)',
  'too-complex': TOO_COMPLEX,
};

const invalid = (message: string) => fail<ProcedureNotes>(serviceError('INVALID_FILE', { message }));
const tooLarge = (message: string) => fail<ProcedureNotes>(serviceError('PAYLOAD_TOO_LARGE', { message }));

/** Refusals about the notes read as before; those about the policy or the denial say which file. */
const inOther = (field: string): string => (field === 'file_content' ? '' : `${field}: `);

const decodedLength = (b64: string): number => {
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return (b64.length / 4) * 3 - padding;
};

export async function readProcedureNotes(fileContent: string, { field = 'file_content', ...options }: NotesOptions = {}): Promise<Result<ProcedureNotes>> {
  const withoutPrefix = fileContent.replace(DATA_URL_PREFIX, '');
  // Cheap bound before any scan or decode: even allowing one line break per 76 characters, a longer
  // string cannot decode to 4 MiB or less.
  const maxEncoded = Math.ceil(MAX_FILE_BYTES / 3) * 4;
  if (withoutPrefix.length > maxEncoded + Math.ceil(maxEncoded / 76) * 2) {
    return tooLarge(`${field} decodes to more than 4 MiB`);
  }
  const b64 = withoutPrefix.replace(LINE_BREAKS, '');
  if (b64.length === 0) return invalid(`${field} is empty`);
  if (!STANDARD_BASE64.test(b64)) {
    return invalid(`${field} is not standard base64 (only A-Z, a-z, 0-9, +, / and = padding are allowed)`);
  }
  if (b64.length % 4 !== 0) return invalid(`${field} is not correctly padded base64`);
  if (decodedLength(b64) > MAX_FILE_BYTES) return tooLarge(`${field} decodes to more than 4 MiB`);

  const bytes = new Uint8Array(Buffer.from(b64, 'base64'));
  if (Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).indexOf(PDF_HEADER) < 0) {
    return invalid(`${field} is not a PDF (no %PDF- header)`);
  }

  // Before any library reads it: the streams may inflate to 64 MiB in all, counted as they inflate
  // (the worker's heap limit does not bound what a library inflates). docs/security.md#pdf-bombs
  const inflation = await checkPdfDecompression(bytes);
  if (!inflation.ok) return tooLarge(`${inOther(field)}${GUARD_REFUSALS[inflation.reason]}`);

  // pdf-lib and pdf.js read the file in a worker thread, under a heap limit and a deadline.
  const parsed = await parseInWorker(bytes, { ...options, maxPages: MAX_PAGES });
  if (parsed.kind !== 'read') return invalid(`${inOther(field)}${PARSE_REFUSALS[parsed.kind]}`);
  if (parsed.pages === 0) return invalid(`${inOther(field)}the PDF has no pages`);
  if (parsed.pages > MAX_PAGES) return tooLarge(`${inOther(field)}the PDF has more than ${MAX_PAGES} pages`);
  return ok({ base64: b64, bytes, pages: parsed.pages, text: parsed.text });
}
