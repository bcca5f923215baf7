// @ts-check
import { parentPort } from 'node:worker_threads';

/**
 * The worker thread that reads an untrusted PDF with libraries (docs/security.md#parsing-in-isolation):
 * pdf-lib loads it and counts its pages, pdf.js (through unpdf's serverless build: no worker of its
 * own, no canvas) reads its text layer per page. It runs in a thread of its own with a heap limit
 * and a deadline set by ./parse-in-worker.ts, which terminates it past either; this file only
 * reads. It loads both libraries first and says `ready`, so the deadline counts parsing, not module
 * loading; then it answers one `{ bytes, maxPages }` message (WorkerJob) with a WorkerAnswer
 * (both declared in ./parse-in-worker.ts) and is done.
 *
 * Plain JavaScript on purpose: Node starts it as it is, from source (tests, `npm start`) and as the
 * bundle beside the Lambda handler alike, with no TypeScript loader in the thread (one cost 0.4 s of
 * CPU per document). docs/deployment.md#side-bundles
 */

// The libraries warn on the console about what they find broken in the file ("Trying to parse invalid
// object", "ignoring errors during GetTextContent"): the file is untrusted, its defects are expected, and
// what the service needs of them comes back as values. Unstructured lines would bypass the service's
// structured logs (docs/security.md#logs), so this thread keeps them to itself.
console.warn = () => undefined;
console.log = () => undefined;

const [{ PDFDocument }, unpdf] = await Promise.all([import('pdf-lib'), import('unpdf')]);

/**
 * Each page's text, or null when pdf.js cannot read what pdf-lib could (treated like a scan).
 * @param {Uint8Array} bytes
 * @returns {Promise<string[] | null>}
 */
async function textOf(bytes) {
  try {
    // pdf.js may take ownership of the buffer it is given; it gets a copy.
    const document = await unpdf.getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, stopAtErrors: false, verbosity: 0 });
    try {
      const { text } = await unpdf.extractText(document, { mergePages: false });
      return /** @type {string[]} */ (text);
    } finally {
      await document.destroy();
    }
  } catch {
    return null;
  }
}

/**
 * @param {{ bytes: Uint8Array; maxPages: number }} job
 * @returns {Promise<{ kind: 'read'; pages: number; text: string[] | null } | { kind: 'encrypted' } | { kind: 'unreadable' }>}
 */
async function read({ bytes, maxPages }) {
  let pages;
  // pdf-lib's EncryptedPDFError is compiled to ES5, so `instanceof` fails on it; loading with
  // ignoreEncryption and asking `isEncrypted` detects encryption without matching message text.
  try {
    const doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
    if (doc.isEncrypted) return { kind: 'encrypted' };
    pages = doc.getPageCount();
  } catch {
    return { kind: 'unreadable' };
  }
  // A file refused for its page count is not read any further.
  if (pages === 0 || pages > maxPages) return { kind: 'read', pages, text: null };
  return { kind: 'read', pages, text: await textOf(bytes) };
}

parentPort?.once('message', (job) => {
  void read(job).then((answer) => parentPort?.postMessage(answer));
});
parentPort?.postMessage({ kind: 'ready' });
