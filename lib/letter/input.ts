import { fail, ok, serviceError, type Result } from '../errors/index.js';
import { MAX_DECOMPRESSED_BYTES } from './decompression-guard.js';
import { MAX_CONTENT_BYTES } from './pdf-embedded.js';
import { checkPdfBeforeParsing, type GateFailure } from './pdf-gate.js';
import { parseInWorker, type IsolatedParse, type ParseOptions } from './parse-in-worker.js';
import { MAX_OBJECTS } from './pdf-structure.js';
import { MAX_DEPTH } from './pdf-values.js';

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
export type NotesOptions = Pick<ParseOptions, 'deadlineMs' | 'cpuMs' | 'onParsing'>;

const DATA_URL_PREFIX = /^data:application\/pdf;base64,/i;
// Line breaks are tolerated (MIME encoders wrap at 76 columns); anything else outside the alphabet is not.
const LINE_BREAKS = /[\r\n]/g;
const STANDARD_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
// A PDF header may be preceded by junk, but must sit in the first 1024 bytes (ISO 32000 §7.5.2 note).
const PDF_HEADER = Buffer.from('%PDF-', 'latin1');

const ENCRYPTED = 'the PDF is encrypted or password-protected';

/** Why the gate refused a file, in plain words: a 413 when it is too big, a 400 when it is not readable. */
const GATE_REFUSALS: Record<GateFailure, { status: 'too-large' | 'invalid'; message: string }> = {
  'too-much-data': { status: 'too-large', message: `the PDF's compressed streams would expand past ${MAX_DECOMPRESSED_BYTES / 1024 / 1024} MiB` },
  'too-many-streams': { status: 'too-large', message: 'the PDF holds too many streams to check' },
  'too-complex': { status: 'too-large', message: 'the PDF is too complex to check' },
  'too-many-pages': { status: 'too-large', message: `the PDF has more than ${MAX_PAGES} pages` },
  'too-much-content': { status: 'too-large', message: `the PDF's page content would expand past ${MAX_CONTENT_BYTES / 1024 / 1024} MiB` },
  unreadable: { status: 'invalid', message: 'the PDF could not be read (damaged or not a PDF)' },
  encrypted: { status: 'invalid', message: ENCRYPTED },
  'too-deep': { status: 'invalid', message: `the PDF nests objects more than ${MAX_DEPTH} levels deep` },
  'too-many-tokens': { status: 'invalid', message: 'the PDF holds more syntax than any document of 100 pages needs' },
  'too-much-junk': { status: 'invalid', message: 'the PDF holds too much data outside its objects (damaged or not a PDF)' },
  'too-many-objects': { status: 'invalid', message: `the PDF holds more than ${MAX_OBJECTS.toLocaleString('en-US')} objects` },
  'page-tree': { status: 'invalid', message: "the PDF's page tree is not a tree (damaged or not a PDF)" },
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

const decodedLength = (b64: string): number => {
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return (b64.length / 4) * 3 - padding;
};

export async function readProcedureNotes(fileContent: string, options: NotesOptions = {}): Promise<Result<ProcedureNotes>> {
  const withoutPrefix = fileContent.replace(DATA_URL_PREFIX, '');
  // Cheap bound before any scan or decode: even allowing one line break per 76 characters, a longer
  // string cannot decode to 4 MiB or less.
  const maxEncoded = Math.ceil(MAX_FILE_BYTES / 3) * 4;
  if (withoutPrefix.length > maxEncoded + Math.ceil(maxEncoded / 76) * 2) {
    return tooLarge('file_content decodes to more than 4 MiB');
  }
  const b64 = withoutPrefix.replace(LINE_BREAKS, '');
  if (b64.length === 0) return invalid('file_content is empty');
  if (!STANDARD_BASE64.test(b64)) {
    return invalid('file_content is not standard base64 (only A-Z, a-z, 0-9, +, / and = padding are allowed)');
  }
  if (b64.length % 4 !== 0) return invalid('file_content is not correctly padded base64');
  if (decodedLength(b64) > MAX_FILE_BYTES) return tooLarge('file_content decodes to more than 4 MiB');

  const bytes = new Uint8Array(Buffer.from(b64, 'base64'));
  if (Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).indexOf(PDF_HEADER) < 0) {
    return invalid('file_content is not a PDF (no %PDF- header)');
  }

  // The gate before any parser: a file whose structure pdf-lib would read without bound, or whose
  // streams would inflate past the cap, never reaches pdf-lib (or the text-layer reader after it).
  // docs/security.md#pdf-structure, docs/security.md#pdf-bombs
  const gate = await checkPdfBeforeParsing(bytes, MAX_PAGES);
  if (!gate.ok) {
    const refusal = GATE_REFUSALS[gate.reason];
    return refusal.status === 'too-large' ? tooLarge(refusal.message) : invalid(refusal.message);
  }

  // pdf-lib and pdf.js read the file in a worker thread, under a heap limit and a deadline.
  const parsed = await parseInWorker(bytes, { ...options, maxPages: MAX_PAGES });
  if (parsed.kind !== 'read') return invalid(PARSE_REFUSALS[parsed.kind]);
  if (parsed.pages === 0) return invalid('the PDF has no pages');
  if (parsed.pages > MAX_PAGES) return tooLarge(`the PDF has more than ${MAX_PAGES} pages`);
  return ok({ base64: b64, bytes, pages: parsed.pages, text: parsed.text });
}
