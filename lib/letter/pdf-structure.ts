import type { PdfValue } from './pdf-syntax.js';
import { isDigit, ValueScanner, type ScanFailure } from './pdf-values.js';
import { lowerBound, streamKeywords } from './stream-keywords.js';

/**
 * The structural walk every letter PDF passes before any library parses it
 * (docs/security.md#pdf-structure). It reads the file the way pdf-lib's parser does (header,
 * then indirect objects, xref tables, trailers and startxref, with whatever lies between them
 * skipped), once, front to back, in time linear in the file's size:
 *  - every indirect object must be readable by a strict reader (pdf-values.ts) with bounded
 *    nesting and a bounded number of tokens for the whole file, and a stream must end where pdf-lib
 *    will look for its end;
 *  - bytes outside any object, xref table or trailer ("junk") are bounded: pdf-lib tries to read an
 *    object header at each such printable byte and pays an exception for each (4 MB of `<<` costs
 *    it 20–40 s of CPU);
 *  - the number of indirect objects is bounded.
 * What it collects (where each object is, the trailers, which streams are object or xref streams)
 * feeds the checks that need decoded data (pdf-embedded.ts).
 */

/** Printable bytes outside objects pdf-lib would skip one exception at a time (≈5 µs each). */
const MAX_JUNK_BYTES = 64 * 1024;
/** Indirect objects (top level and in object streams); a 100-page scan holds a few hundred. */
export const MAX_OBJECTS = 200_000;
/** Steps of pdf-lib's search for a stream's end when /Length is wrong (stream/endstream nesting). */
const MAX_STREAM_END_STEPS = 1_000;
/**
 * Bytes pdf-lib may scan recovering objects whose stream end it cannot find (it reads on to the end
 * of the file, then back from the object for `endobj`): two passes over a 4 MiB file, ≈0.2 s.
 * An uncompressed content stream saying "bloodstream" with an indirect /Length is such an object.
 */
const MAX_RECOVERY_BYTES = 8 * 1024 * 1024;

export type StructureFailure = ScanFailure | 'too-much-junk' | 'too-many-objects' | 'unterminated-stream';

/** Where an object's value sits: in the file, or in an object stream (by the stream's object number). */
type ObjectPlace = { in: 'file'; at: number } | { in: 'objstm'; stream: number; index: number };

export interface StreamObject {
  num: number;
  dict: Map<string, PdfValue[]>;
  /** Stream data, as byte offsets into the file. */
  start: number;
  end: number;
}

export interface PdfStructure {
  scanner: ValueScanner;
  objects: Map<number, ObjectPlace>;
  /** Every trailer dictionary, in file order (xref streams' dictionaries included). */
  trailers: Array<Map<string, PdfValue[]>>;
  /** Streams pdf-lib decodes and parses while loading: /Type /ObjStm and /Type /XRef. */
  objectStreams: StreamObject[];
  xrefStreams: StreamObject[];
  /** Every stream object by number (the last definition wins), for the page-content budget. */
  streams: Map<number, StreamObject>;
}

export type StructureScan =
  | { ok: true; structure: PdfStructure }
  /** `stream`: the stream whose end could not be found (its data runs to the end of the file), to be measured. */
  | { ok: false; reason: StructureFailure; stream?: StreamObject };

class Refused extends Error {
  constructor(
    readonly reason: StructureFailure,
    readonly stream?: StreamObject,
  ) {
    super(reason);
  }
}

const nameOf = (dict: Map<string, PdfValue[]>, key: string): string | undefined => {
  const value = dict.get(key)?.[0];
  return value?.kind === 'name' ? value.name : undefined;
};

class Walker {
  readonly scanner: ValueScanner;
  readonly objects = new Map<number, ObjectPlace>();
  readonly trailers: PdfStructure['trailers'] = [];
  readonly objectStreams: StreamObject[] = [];
  readonly xrefStreams: StreamObject[] = [];
  readonly streams = new Map<number, StreamObject>();
  private junk = 0;
  private recovery = 0;
  private objectCount = 0;
  private keywords?: { streams: number[]; ends: number[] };

  constructor(readonly text: string) {
    this.scanner = new ValueScanner(text);
  }

  private value(at: number, build: boolean) {
    const scanned = this.scanner.value(at, build);
    if (!scanned.ok) throw new Refused(scanned.reason);
    return scanned;
  }

  /** `N G obj` at `p` (pdf-lib's object header), or undefined. */
  private header(p: number): { num: number; end: number } | undefined {
    const num = ValueScanner.rawInt(this.text, p);
    if (!num) return undefined;
    const gen = ValueScanner.rawInt(this.text, this.scanner.skip(num.end));
    if (!gen) return undefined;
    const obj = this.scanner.skip(gen.end);
    return this.text.startsWith('obj', obj) ? { num: num.value, end: obj + 3 } : undefined;
  }

  /** Where pdf-lib's fallback puts a stream's end: the `endstream` that balances nested `stream` keywords. */
  private fallbackEnd(start: number): { dataEnd: number; after: number } | undefined {
    this.keywords ??= streamKeywords(this.text);
    const { streams, ends } = this.keywords;
    let depth = 1;
    let s = lowerBound(streams, start);
    let e = lowerBound(ends, start);
    for (let step = 0; step < MAX_STREAM_END_STEPS; step++) {
      const nextStream = streams[s] ?? Infinity;
      const nextEnd = ends[e] ?? Infinity;
      if (nextEnd === Infinity) break;
      if (nextStream < nextEnd) {
        depth++;
        s++;
        continue;
      }
      depth--;
      e++;
      if (depth === 0) {
        let dataEnd = nextEnd;
        if (this.text.charCodeAt(dataEnd - 1) === 0x0a) dataEnd--;
        if (this.text.charCodeAt(dataEnd - 1) === 0x0d) dataEnd--;
        return { dataEnd: Math.max(start, dataEnd), after: nextEnd + 9 };
      }
    }
    // pdf-lib would fail this object and scan on for `endobj`: refused instead (by the caller).
    return undefined;
  }

  /** An indirect object from its header to after `endobj` (optional, as for pdf-lib). */
  private object(num: number, headerEnd: number): number {
    if (++this.objectCount > MAX_OBJECTS) throw new Refused('too-many-objects');
    const valueAt = this.scanner.skip(headerEnd);
    let scanned = this.value(valueAt, false);
    let p = this.scanner.skip(scanned.end);
    const text = this.text;
    if (text.startsWith('<<', valueAt) && text.startsWith('stream', p)) {
      // A stream: its dictionary is read again, built this time, for /Length, /Type and /Filter.
      scanned = this.value(valueAt, true);
      const dict = scanned.value.kind === 'dict' ? scanned.value.entries : new Map<string, PdfValue[]>();
      let start = p + 6;
      if (text.startsWith(' \r\n', start)) start += 3;
      else if (text.startsWith('\r\n', start)) start += 2;
      else if (text.charCodeAt(start) === 0x0d || text.charCodeAt(start) === 0x0a) start += 1;
      const length = dict.get('Length')?.[0];
      let end: number;
      let after = -1;
      if (length?.kind === 'number' && length.value >= 0) {
        const check = this.scanner.skip(start + length.value);
        if (start + length.value <= text.length && text.startsWith('endstream', check)) {
          end = start + length.value;
          after = check + 9;
        }
      }
      if (after < 0) {
        const found = this.fallbackEnd(start);
        if (!found) return this.recover(num, dict, headerEnd, start);
        ({ dataEnd: end, after } = found);
      }
      const stream: StreamObject = { num, dict, start, end: end! };
      const type = nameOf(dict, 'Type');
      this.streams.set(num, stream);
      if (type === 'ObjStm') this.objectStreams.push(stream);
      if (type === 'XRef') {
        this.xrefStreams.push(stream);
        this.trailers.push(dict);
      }
      p = this.scanner.skip(after);
    }
    if (text.startsWith('endobj', p)) p += 6;
    this.objects.set(num, { in: 'file', at: valueAt });
    return p;
  }

  /**
   * pdf-lib's way past an object it cannot read: from after the header to the first `endobj`
   * (the object becomes "invalid" and its stream is not read). Bounded by MAX_RECOVERY_BYTES; with
   * no `endobj` (or past the bound) the stream is unterminated and the file refused. pdf.js may still
   * read the stream (it resolves an indirect /Length), so it stays listed, up to `endobj`, for the
   * page-content budget.
   */
  private recover(num: number, dict: Map<string, PdfValue[]>, headerEnd: number, start: number): number {
    const endobj = this.text.indexOf('endobj', headerEnd);
    this.recovery += this.text.length - start + Math.max(0, endobj - headerEnd);
    if (endobj < 0 || this.recovery > MAX_RECOVERY_BYTES) throw new Refused('unterminated-stream', { num, dict, start, end: this.text.length });
    this.streams.set(num, { num, dict, start, end: endobj });
    return endobj + 6;
  }

  /** `xref` and its subsections, as pdf-lib reads them: pairs of integers, each optionally followed by n or f. */
  private xrefTable(p: number): number {
    p = this.scanner.skip(p + 4);
    while (isDigit(this.text.charCodeAt(p))) {
      const first = ValueScanner.rawInt(this.text, p);
      const second = first && ValueScanner.rawInt(this.text, this.scanner.skip(first.end));
      if (!second) throw new Refused('unreadable');
      p = this.scanner.skip(second.end);
      const c = this.text.charCodeAt(p);
      if (c === 0x6e || c === 0x66) p++;
      p = this.scanner.skip(p);
      this.scanner.tokens += 3;
      if (this.scanner.tokens > this.scanner.maxTokens) throw new Refused('too-many-tokens');
    }
    return p;
  }

  walk(): PdfStructure {
    const text = this.text;
    const headerAt = text.indexOf('%PDF-');
    if (headerAt < 0 || headerAt > 1024) throw new Refused('unreadable');
    // pdf-lib reads the version as digits, a dot, digits.
    if (!/^%PDF-\d+\.\d+/.test(text.slice(headerAt, headerAt + 24))) throw new Refused('unreadable');
    let p = headerAt + 5;
    while (p < text.length) {
      const before = p;
      p = this.scanner.skip(p);
      if (p >= text.length) break;
      const header = isDigit(text.charCodeAt(p)) ? this.header(p) : undefined;
      if (header) {
        p = this.object(header.num, header.end);
      } else if (text.startsWith('xref', p)) {
        p = this.xrefTable(p);
      } else if (text.startsWith('trailer', p)) {
        const dict = this.value(this.scanner.skip(p + 7), true);
        if (dict.value.kind !== 'dict') throw new Refused('unreadable');
        this.trailers.push(dict.value.entries);
        p = dict.end;
      } else if (text.startsWith('startxref', p)) {
        const offset = ValueScanner.rawInt(text, this.scanner.skip(p + 9));
        if (!offset) throw new Refused('unreadable');
        p = offset.end;
      } else {
        // Junk: pdf-lib tries an object header at every printable byte of it.
        const c = text.charCodeAt(p);
        if (c >= 0x20 && c <= 0x7e && ++this.junk > MAX_JUNK_BYTES) throw new Refused('too-much-junk');
        p++;
      }
      if (p <= before) throw new Refused('unreadable');
    }
    return {
      scanner: this.scanner,
      objects: this.objects,
      trailers: this.trailers,
      objectStreams: this.objectStreams,
      xrefStreams: this.xrefStreams,
      streams: this.streams,
    };
  }
}

/** Walks the file's top-level structure (see above); linear in its size, never decodes a stream. */
export function scanPdfStructure(text: string): StructureScan {
  try {
    return { ok: true, structure: new Walker(text).walk() };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.reason, ...(error.stream ? { stream: error.stream } : {}) };
    throw error;
  }
}
