/**
 * One measurement for bench/hostile.ts, in a fresh process so memory figures start clean:
 *   guard <shape>   readProcedureNotes (the decompression guard, then pdf-lib) on the bomb
 *   load <shape>    what the service did before the guard: pdf-lib's PDFDocument.load
 *   decode <shape>  load, then decode every stream as a text-layer reader would
 *   worker <shape>  decode inside a worker_threads Worker with resourceLimits (128 MB old space)
 *   gate <shape>    readProcedureNotes on a fake or hostile PDF (test/fixtures/letter/hostile-pdfs.ts)
 *   parse <shape>   pdf-lib's load, then its page count, on this thread (what the service did before the isolated parse)
 *   textlayer <shape>  the notes' text layer (pdf.js, as the service's parse worker reads it), on this thread
 *   json            the strict parser vs JSON.parse on a 4 MiB letter body and a 100k-key body
 * Prints one JSON line. The parent (bench/hostile.ts) watches this process's memory and kills it
 * past its cap, so the unguarded modes are safe to run.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { decodePDFRawStream, PDFDocument, PDFRawStream } from 'pdf-lib';
import { readProcedureNotes } from '../lib/letter/index.js';
import { parseStrictJson } from '../lib/http/index.js';
import { makeBomb, type BombShape } from '../test/fixtures/letter/bombs.js';
import { COSTLY_ACCEPTED_PDFS, HOSTILE_PDFS, type HostileShape } from '../test/fixtures/letter/hostile-pdfs.js';

const [mode, shape, mibArg] = process.argv.slice(2) as [string, BombShape, string];
const mib = Number(mibArg ?? 2048);
const rssMiB = () => process.memoryUsage().rss / 1024 / 1024;

async function decodeAll(bytes: Uint8Array): Promise<number> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
  let total = 0;
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFRawStream) total += decodePDFRawStream(object).decode().length;
  }
  return total;
}

/** The decode mode, as plain CommonJS for a worker (no TypeScript loader there). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { PDFDocument, PDFRawStream, decodePDFRawStream } = require(workerData.pdfLib);
(async () => {
  const doc = await PDFDocument.load(workerData.bytes, { updateMetadata: false, ignoreEncryption: true });
  let total = 0;
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFRawStream) total += decodePDFRawStream(object).decode().length;
  }
  parentPort.postMessage('decoded ' + Math.round(total / 1048576) + ' MiB');
})().catch((error) => parentPort.postMessage('threw ' + error.name));
`;

async function main(): Promise<void> {
  if (mode === 'json') {
    const letter = JSON.stringify({ file_content: Buffer.alloc(3 * 1024 * 1024, 7).toString('base64'), patient_name: 'A B' });
    const keys = JSON.stringify(Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i])));
    const time = (fn: () => unknown) => {
      const runs: number[] = [];
      for (let i = 0; i < 7; i++) {
        const t = performance.now();
        fn();
        runs.push(performance.now() - t);
      }
      return runs.sort((a, b) => a - b)[3]!;
    };
    console.log(
      JSON.stringify({
        letterBytes: letter.length,
        letterStrictMs: time(() => parseStrictJson(letter)),
        letterJsonParseMs: time(() => JSON.parse(letter)),
        keysBytes: keys.length,
        keysStrictMs: time(() => parseStrictJson(keys)),
        keysJsonParseMs: time(() => JSON.parse(keys)),
      }),
    );
    return;
  }
  const structural = mode === 'gate' || mode === 'parse' || mode === 'textlayer';
  const hostile = shape as string as HostileShape;
  const bytes = new Uint8Array(
    structural ? (Object.hasOwn(HOSTILE_PDFS, hostile) ? HOSTILE_PDFS[hostile].make() : COSTLY_ACCEPTED_PDFS[shape]!()) : await makeBomb(shape, mib),
  );
  const file = Buffer.from(bytes).toString('base64');
  const rssBefore = rssMiB();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let outcome: string;
  if (mode === 'guard' || mode === 'gate') {
    const result = await readProcedureNotes(file);
    outcome = result.ok ? 'accepted' : `${result.error.status} ${result.error.code}`;
  } else if (mode === 'load') {
    try {
      const doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
      outcome = `loaded (${doc.getPageCount()} page)`;
    } catch (error) {
      outcome = `threw ${(error as Error).name}`;
    }
  } else if (mode === 'textlayer') {
    const { getDocumentProxy, extractText } = await import('unpdf');
    try {
      const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, stopAtErrors: false }), { mergePages: false });
      outcome = `read ${(text as string[]).reduce((sum, page) => sum + page.length, 0)} characters`;
    } catch (error) {
      outcome = `threw ${(error as Error).name}`;
    }
  } else if (mode === 'parse') {
    try {
      const doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
      outcome = `loaded (${doc.getPageCount()} pages)`;
    } catch (error) {
      outcome = `threw ${(error as Error).name}`;
    }
  } else if (mode === 'decode') {
    try {
      outcome = `decoded ${Math.round((await decodeAll(bytes)) / 1024 / 1024)} MiB`;
    } catch (error) {
      outcome = `threw ${(error as Error).name}`;
    }
  } else {
    outcome = await new Promise<string>((resolve) => {
      const worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { bytes, pdfLib: createRequire(import.meta.url).resolve('pdf-lib') },
        resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32 },
      });
      worker.on('message', (m) => resolve(`worker: ${String(m)}`));
      worker.on('error', (error) => resolve(`worker died: ${error.name}${(error as { code?: string }).code ? ` ${(error as { code?: string }).code}` : ''}`));
      worker.on('exit', (code) => resolve(`worker exited ${code}`));
    });
  }
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const peakRssMiB = process.resourceUsage().maxRSS / 1024;
  console.log(
    JSON.stringify({
      mode,
      shape,
      fileBytes: bytes.length,
      outcome,
      ms: Math.round(ms),
      // CPU of every thread of the process (zlib's pool included), user and system.
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      rssGrowthMiB: Math.round(rssMiB() - rssBefore),
      // Conservative: the process's peak resident size over the resident size before the call.
      peakGrowthMiB: Math.round(Math.max(0, peakRssMiB - rssBefore)),
      peakRssMiB: Math.round(peakRssMiB),
    }),
  );
}

await main();
