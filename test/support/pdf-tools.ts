/**
 * The tools the tests check real PDFs with, all from npm (docs/testing.md#pdf-tools), so `npm install`
 * then `npm test` needs no system package:
 *
 * - text, pages, page size and title through pdf.js (unpdf, which the service already uses), with each
 *   marked-content span's /ActualText in place of the glyphs it covers, as poppler and Acrobat read it
 *   (pdf.js's own text content ignores ActualText);
 * - the fonts a PDF embeds, read from its font dictionaries with pdf-lib;
 * - qpdf itself (12.x) compiled to WebAssembly, for `--check` and for rewriting a file into the shapes
 *   qpdf writes (object streams, linearized, QDF, encrypted).
 */
import { getDocumentProxy } from 'unpdf';
import createQpdf from '@neslinesli93/qpdf-wasm';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, type PDFObject, PDFRawStream, PDFRef, PDFString } from 'pdf-lib';

/** One run of text as pdf.js reads it: its string and where it sits on the page (PDF points, origin bottom left). */
export interface TextRun {
  text: string;
  xMin: number;
  xMax: number;
  y: number;
}

/** What `pdfinfo` said: page count, the first page's size in points, the document title. */
export interface PdfInfo {
  pages: number;
  width: number;
  height: number;
  title: string | undefined;
}

async function openPdf<T>(pdf: Uint8Array, read: (document: Awaited<ReturnType<typeof getDocumentProxy>>) => Promise<T>): Promise<T> {
  // pdf.js may take ownership of the buffer it is given; it gets a copy.
  const document = await getDocumentProxy(new Uint8Array(pdf), { isEvalSupported: false, verbosity: 0 });
  try {
    return await read(document);
  } finally {
    await document.destroy();
  }
}

/**
 * The /ActualText of every marked-content span opened with properties (`BDC`) on each page, in the order
 * the content streams open them (undefined for a span without one). pdf.js reports the same spans, in the
 * same order, without their properties.
 */
async function actualTexts(pdf: Uint8Array): Promise<Array<Array<string | undefined>>> {
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  return document.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => document.context.lookup(ref)) : [contents];
    const source = streams
      .filter((stream): stream is PDFRawStream => stream instanceof PDFRawStream)
      .map((stream) => Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1'))
      .join('\n');
    // A span's properties are an inline dictionary (what the letter writes) or a name in the resources.
    return [...source.matchAll(/\/[^\s/<>[\]()]+\s*(<<(?:(?!>>)[\s\S])*>>|\/[^\s/<>[\]()]+)\s*BDC/g)].map(([, properties]) => {
      const hex = /\/ActualText\s*<([0-9A-Fa-f\s]*)>/.exec(properties!);
      if (hex) return PDFHexString.of(hex[1]!.replace(/\s/g, '')).decodeText();
      const literal = /\/ActualText\s*\(((?:\\.|[^\\)])*)\)/.exec(properties!);
      return literal ? PDFString.of(literal[1]!).decodeText() : undefined;
    });
  });
}

/**
 * The text runs of each page (index 0 = page 1), exactly as drawn: no Unicode normalisation (a `²` stays
 * a `²`). pdf.js puts a right-to-left run back in logical order, as poppler does; a span with an
 * /ActualText becomes one run of that text over the box of its glyphs.
 */
export async function pdfTextRuns(pdf: Uint8Array): Promise<TextRun[][]> {
  const spans = await actualTexts(pdf);
  return openPdf(pdf, async (document) => {
    const pages: TextRun[][] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const content = await (await document.getPage(number)).getTextContent({ disableNormalization: true, includeMarkedContent: true });
      const actual = spans[number - 1] ?? [];
      const runs: TextRun[] = [];
      /** The open spans, innermost last: the ActualText each stands for and the runs drawn inside it. */
      const open: Array<{ text: string | undefined; runs: TextRun[] }> = [];
      let opened = 0;
      for (const item of content.items) {
        if ('type' in item) {
          if (item.type === 'beginMarkedContentProps') open.push({ text: actual[opened++], runs: [] });
          else if (item.type === 'beginMarkedContent') open.push({ text: undefined, runs: [] });
          else if (item.type === 'endMarkedContent') {
            const span = open.pop();
            const into = open.at(-1)?.runs ?? runs;
            if (span?.text !== undefined && span.runs.length > 0) {
              const xs = span.runs.flatMap((run) => [run.xMin, run.xMax]);
              into.push({ text: span.text, xMin: Math.min(...xs), xMax: Math.max(...xs), y: span.runs[0]!.y });
            } else into.push(...(span?.runs ?? []));
          }
          continue;
        }
        if (item.str.trim() === '') continue;
        const [, , , , x, y] = item.transform as number[];
        (open.at(-1)?.runs ?? runs).push({ text: item.str, xMin: x!, xMax: x! + item.width, y: y! });
      }
      pages.push(runs);
    }
    return pages;
  });
}

/** Runs closer than this (points) vertically share a line. */
const SAME_LINE = 2;
/** A horizontal gap wider than this (points) between two runs on a line is a space. */
const WORD_GAP = 1;

/**
 * A page's text the way `pdftotext -layout` lays it out: lines top to bottom, runs left to right on each
 * line, one space where runs stand apart (or wherever a run has white space of its own). Runs are ordered by where they are drawn (what a reader sees),
 * each right-to-left run in logical order inside: for the left-to-right lines of the letter this is the
 * order poppler gives.
 */
export function layoutText(runs: TextRun[]): string {
  const lines: TextRun[][] = [];
  for (const run of [...runs].sort((a, b) => b.y - a.y || a.xMin - b.xMin)) {
    const line = lines.at(-1);
    if (line && Math.abs(line[0]!.y - run.y) < SAME_LINE) line.push(run);
    else lines.push([run]);
  }
  return lines
    .map((line) =>
      line
        .sort((a, b) => a.xMin - b.xMin)
        .reduce((text, run, index) => text + (index > 0 && run.xMin - line[index - 1]!.xMax > WORD_GAP ? ' ' : '') + run.text, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .join('\n');
}

/** The text of every page (or of the 1-based `page` only), laid out as {@link layoutText} does. */
export async function pdfText(pdf: Uint8Array, page?: number): Promise<string> {
  const pages = await pdfTextRuns(pdf);
  return (page === undefined ? pages : [pages[page - 1] ?? []]).map(layoutText).join('\n\f');
}

/** Page count, first page size and title. */
export async function pdfInfo(pdf: Uint8Array): Promise<PdfInfo> {
  return openPdf(pdf, async (document) => {
    const [, , width, height] = (await document.getPage(1)).view;
    const { info } = (await document.getMetadata()) as { info: { Title?: string } };
    return { pages: document.numPages, width: width!, height: height!, title: info.Title };
  });
}

/** One font of a PDF as `pdffonts` lists it. */
export interface PdfFont {
  /** The base font name, subset tag included (`DejaVuSans-Bold-1234`). */
  name: string;
  /** `CID TrueType` for a Type0 font over a CIDFontType2, otherwise the font dictionary's Subtype. */
  type: string;
  encoding: string | undefined;
  embedded: boolean;
}

/** The fonts the pages use, from their resource dictionaries (each font once). */
export async function pdfFonts(pdf: Uint8Array): Promise<PdfFont[]> {
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  const dict = (object: PDFObject | undefined) => {
    const resolved = object instanceof PDFRef ? document.context.lookup(object) : object;
    return resolved instanceof PDFDict ? resolved : undefined;
  };
  const name = (object: PDFObject | undefined) => (object instanceof PDFName ? object.decodeText() : undefined);
  const fonts = new Map<string, PdfFont>();
  for (const page of document.getPages()) {
    const resources = dict(page.node.Resources());
    const fontDicts = dict(resources?.get(PDFName.of('Font')));
    for (const [, ref] of fontDicts?.entries() ?? []) {
      const font = dict(ref);
      if (!font) continue;
      const descendants = font.get(PDFName.of('DescendantFonts'));
      const descendant = descendants instanceof PDFArray ? dict(descendants.get(0)) : undefined;
      const subtype = name((descendant ?? font).get(PDFName.of('Subtype')));
      const descriptor = dict((descendant ?? font).get(PDFName.of('FontDescriptor')));
      const entry: PdfFont = {
        name: name(font.get(PDFName.of('BaseFont'))) ?? '',
        type: subtype === 'CIDFontType2' ? 'CID TrueType' : (subtype ?? ''),
        encoding: name(font.get(PDFName.of('Encoding'))),
        embedded: ['FontFile', 'FontFile2', 'FontFile3'].some((key) => descriptor?.has(PDFName.of(key))),
      };
      fonts.set(entry.name, entry);
    }
  }
  return [...fonts.values()];
}

/** What a qpdf run printed and its exit status (0 fine, 2 errors, 3 warnings). */
export interface QpdfRun {
  status: number;
  stdout: string;
  stderr: string;
  /** The file qpdf wrote as its output, when it wrote one. */
  output: Uint8Array | undefined;
}

/** A qpdf WebAssembly instance: its main and its in-memory file system. */
interface QpdfModule {
  callMain(args: string[]): number;
  FS: {
    init(stdin: () => number | null, stdout: (byte: number | null) => void, stderr: (byte: number | null) => void): void;
    writeFile(path: string, data: Uint8Array): void;
    readFile(path: string): Uint8Array;
  };
}

/**
 * Runs qpdf (WebAssembly) on `input`, named `in.pdf` on its own in-memory file system; `out.pdf` is read
 * back as the output. Each run gets a fresh instance: a qpdf program exits after one command.
 */
export async function runQpdf(args: string[], input: Uint8Array): Promise<QpdfRun> {
  const stdout: number[] = [];
  const stderr: number[] = [];
  const exitCode = process.exitCode;
  // The package's types know only part of Emscripten's module: what is used here, as Emscripten documents it.
  const qpdf = (await (createQpdf as unknown as (options: object) => Promise<QpdfModule>)({
    thisProgram: 'qpdf',
    preRun: [
      (module: QpdfModule) =>
        module.FS.init(
          () => null,
          (byte) => byte !== null && stdout.push(byte),
          (byte) => byte !== null && stderr.push(byte),
        ),
    ],
  })) as QpdfModule;
  qpdf.FS.writeFile('/in.pdf', input);
  let status: number;
  try {
    status = qpdf.callMain(args.map((arg) => (arg === 'in.pdf' || arg === 'out.pdf' ? `/${arg}` : arg)));
  } finally {
    // Emscripten's exit sets the host's process.exitCode to qpdf's status: a Jest worker keeps its own.
    process.exitCode = exitCode;
  }
  let output: Uint8Array | undefined;
  try {
    output = qpdf.FS.readFile('/out.pdf');
  } catch {
    output = undefined;
  }
  return { status, stdout: Buffer.from(stdout).toString('utf8'), stderr: Buffer.from(stderr).toString('utf8'), output };
}

/** `qpdf --check`: status 0 and "No syntax or stream encoding errors" for a sound file. */
export const qpdfCheck = (pdf: Uint8Array): Promise<QpdfRun> => runQpdf(['--check', 'in.pdf'], pdf);

/** The input rewritten by qpdf with `args` (`qpdf ARGS in.pdf out.pdf`); throws with qpdf's words unless it exits 0. */
export async function qpdfRewrite(pdf: Uint8Array, args: string[]): Promise<Buffer> {
  const run = await runQpdf([...args, 'in.pdf', 'out.pdf'], pdf);
  if (run.status !== 0 || !run.output) throw new Error(`qpdf ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return Buffer.from(run.output);
}
