/**
 * Reading the notes PDF (docs/letter.md#the-pipeline): `file_content` → PDF bytes, checked for size
 * and for what its streams inflate to (docs/security.md#pdf-bombs), then read by pdf-lib and pdf.js
 * in a worker thread under a heap limit and a CPU deadline (docs/security.md#parsing-in-isolation):
 * page count and text layer. Then the search over that text the citation and code checks use.
 *
 * The only import path into this folder for the rest of lib/letter and for other folders.
 *
 * @example
 * ```typescript
 * import { readProcedureNotes, searchNotes, textLayerOf } from './intake/index.js';
 *
 * const notes = await readProcedureNotes(request.file_content);
 * if (!notes.ok) return notes; // 400 INVALID_FILE or 413 PAYLOAD_TOO_LARGE, in plain words
 * const layer = textLayerOf(notes.value.text); // pages: null for a scan
 * const search = searchNotes(layer.pages);
 * search.codePages('M17.11'); // → [1]
 * ```
 */

/** `file_content` → the notes: base64 checked, the decompression guard, then the isolated parse. */
export { readProcedureNotes, type NotesOptions, type ProcedureNotes } from './input.js';
/** The 64 MiB cap on what a file's streams inflate to, counted as they inflate (the local sandbox uses it too). */
export { checkPdfDecompression, MAX_DECOMPRESSED_BYTES, type DecompressionCheck } from './decompression-guard.js';
/** pdf-lib and pdf.js over one file in a worker thread, under a heap limit and a CPU deadline. */
export { PARSE_DEADLINE_MS, PARSE_HEAP_MB, parseInWorker, type IsolatedParse, type ParseOptions } from './parse-in-worker.js';
/** The notes' text per page, or null for a scan. */
export { textLayerOf, type TextLayer } from './text-layer.js';
/** Lookups of passages and codes in that text, each index built once. */
export { codeKey, searchNotes, type NotesSearch } from './notes-search.js';
