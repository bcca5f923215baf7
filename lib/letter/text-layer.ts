/**
 * The notes' own text layer, per page (docs/letter.md#codes), read with pdf.js (through unpdf's
 * serverless build: no worker, no canvas). It is called only after the notes passed the input
 * checks (size, pages, decompression limit), so what pdf.js inflates is bounded. pdf.js is imported
 * on first use, never at module load: a cold start that writes no letter does not pay for it.
 *
 * A PDF whose pages hold (almost) no text is a scan: `pages` is null, and codes cannot be checked.
 */

export interface TextLayer {
  /** Text per page (index 0 = page 1), or null when the PDF has no usable text layer. */
  pages: string[] | null;
}

/** Fewer letters and digits than this in the whole file: a scan (a stray page number is not a text layer). */
const MIN_TEXT_CHARS = 16;

export async function readTextLayer(bytes: Uint8Array): Promise<TextLayer> {
  try {
    const { getDocumentProxy, extractText } = await import('unpdf');
    // pdf.js may take ownership of the buffer it is given; it gets a copy.
    const document = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, stopAtErrors: false });
    try {
      const { text } = await extractText(document, { mergePages: false });
      const pages = (text as string[]).map((page) => page.normalize('NFC'));
      const letters = pages.reduce((sum, page) => sum + (page.match(/[\p{L}\p{N}]/gu)?.length ?? 0), 0);
      return { pages: letters >= MIN_TEXT_CHARS ? pages : null };
    } finally {
      await document.destroy();
    }
  } catch {
    // pdf-lib read the file, pdf.js could not: treat it like a scan (nothing to verify against).
    return { pages: null };
  }
}
