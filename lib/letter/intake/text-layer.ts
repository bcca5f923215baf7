/**
 * The notes' own text layer, per page (docs/letter.md#codes): the text pdf.js read from each page
 * in the isolated parse (./parse-in-worker.ts), normalized, or nothing when the notes are a scan.
 * A PDF whose pages hold (almost) no text is a scan: `pages` is null, and codes cannot be checked.
 */

export interface TextLayer {
  /** Text per page (index 0 = page 1), or null when the PDF has no usable text layer. */
  pages: string[] | null;
}

/** Fewer letters and digits than this in the whole file: a scan (a stray page number is not a text layer). */
const MIN_TEXT_CHARS = 16;

/** The text layer of pages pdf.js read (null when it could not read them: treated like a scan). */
export function textLayerOf(text: string[] | null): TextLayer {
  if (!text) return { pages: null };
  const pages = text.map((page) => page.normalize('NFC'));
  const letters = pages.reduce((sum, page) => sum + (page.match(/[\p{L}\p{N}]/gu)?.length ?? 0), 0);
  return { pages: letters >= MIN_TEXT_CHARS ? pages : null };
}
