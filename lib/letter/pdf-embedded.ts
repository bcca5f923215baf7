import { ByteBudget, decodeChain } from './pdf-filters.js';
import { MAX_OBJECTS, type PdfStructure, type StreamObject } from './pdf-structure.js';
import type { PdfValue } from './pdf-syntax.js';
import { ValueScanner } from './pdf-values.js';
import { MAX_DECOMPRESSED_BYTES } from './decompression-guard.js';

/**
 * The structural checks that need more than one pass over the raw bytes
 * (docs/security.md#pdf-structure), run after the decompression guard said the file's streams
 * inflate to a bounded size. Each bounds work pdf-lib would otherwise do without limit:
 *  - an object stream's objects must sit in order without overlapping (pdf-lib parses each from its
 *    offset: N offsets into one huge array would cost N times the array);
 *  - an xref stream may list no more entries than its data holds (pdf-lib loops over /Size or
 *    /Index, reading past the data, and would build a billion entries for a 100-byte file);
 *  - the page tree must be a tree of at most `maxPages` leaves (pdf-lib walks it without memory of
 *    visited nodes: 40 levels of two references to the same node are 2^40 visits);
 *  - what the text-layer reader interprets (the pages' /Contents and every form XObject) decodes to
 *    at most MAX_CONTENT_BYTES: pdf.js spends about 0.6 s of CPU per MiB of small text operators,
 *    in one block, and a 60 KB file can hold 60 MiB of them.
 */

/** Page-tree entries visited (a 100-page file needs about a hundred). */
const MAX_PAGE_TREE_VISITS = 10_000;
/** Decoded page content and form XObjects, in all: 100 dense pages of text hold 1–2 MiB; 3 MiB of the smallest text operators cost pdf.js about 1.5 s of CPU. */
export const MAX_CONTENT_BYTES = 3 * 1024 * 1024;

export type EmbeddedFailure =
  | 'unreadable'
  | 'too-many-objects'
  | 'too-many-tokens'
  | 'too-deep'
  | 'too-much-data'
  | 'too-many-pages'
  | 'page-tree'
  | 'too-much-content';

export type EmbeddedCheck = { ok: true } | { ok: false; reason: EmbeddedFailure };

class Refused extends Error {
  constructor(readonly reason: EmbeddedFailure) {
    super(reason);
  }
}

const first = (dict: Map<string, PdfValue[]>, key: string): PdfValue | undefined => dict.get(key)?.[0];
const numberOf = (value: PdfValue | undefined): number | undefined =>
  value?.kind === 'number' && Number.isInteger(value.value) && value.value >= 0 ? value.value : undefined;

class Embedded {
  private readonly decoded = new Map<number, string>();
  private readonly built = new Map<number, PdfValue | undefined>();
  private readonly budget = new ByteBudget(MAX_DECOMPRESSED_BYTES);
  private objectCount: number;

  constructor(
    private readonly structure: PdfStructure,
    private readonly file: Buffer,
  ) {
    this.objectCount = structure.objects.size;
  }

  private get scanner(): ValueScanner {
    return this.structure.scanner;
  }

  /** A stream's decoded data (direct filter names only, as pdf-lib needs them to be readable). */
  private async decode(stream: StreamObject, budget: ByteBudget = this.budget, keep = true): Promise<string> {
    const filter = this.direct(first(stream.dict, 'Filter'));
    const names =
      filter === undefined ? [] : filter.kind === 'name' ? [filter] : filter.kind === 'array' ? filter.items.map((item) => this.direct(item)) : [undefined];
    if (names.some((name) => name?.kind !== 'name')) throw new Refused('unreadable');
    const parms = this.direct(first(stream.dict, 'DecodeParms'));
    const parmList = parms?.kind === 'array' ? parms.items.map((item) => this.direct(item)) : [parms];
    const params = names.map((_, i) => {
      const p = parmList[i];
      const early = p?.kind === 'dict' ? numberOf(first(p.entries, 'EarlyChange')) : undefined;
      return early === undefined ? {} : { earlyChange: early };
    });
    const result = await decodeChain(
      names.map((n) => (n as { name: string }).name),
      params,
      this.file.subarray(stream.start, stream.end),
      budget,
      keep,
    );
    if (result.kind === 'over') throw new Refused(budget === this.budget ? 'too-much-data' : 'too-much-content');
    if (result.kind === 'opaque') throw new Refused('unreadable');
    return keep ? result.bytes.toString('latin1') : '';
  }

  /** A value, with one indirect reference followed (to an object in the file or an object stream). */
  private direct(value: PdfValue | undefined): PdfValue | undefined {
    return value?.kind === 'ref' ? this.resolve(value.num) : value;
  }

  resolve(num: number): PdfValue | undefined {
    if (this.built.has(num)) return this.built.get(num);
    const place = this.structure.objects.get(num);
    let value: PdfValue | undefined;
    if (place?.in === 'file') {
      const scanned = this.scanner.value(place.at, true);
      value = scanned.ok ? scanned.value : undefined;
    } else if (place?.in === 'objstm') {
      const text = this.decoded.get(place.stream);
      const scanned = text === undefined ? undefined : this.scanner.value(place.index, true, text);
      value = scanned?.ok ? scanned.value : undefined;
    }
    this.built.set(num, value);
    return value;
  }

  /** pdf-lib's PDFObjectStreamParser: N pairs (object number, offset), then each object at First + offset. */
  async objectStream(stream: StreamObject): Promise<void> {
    const count = numberOf(this.direct(first(stream.dict, 'N')));
    const firstOffset = numberOf(this.direct(first(stream.dict, 'First')));
    if (count === undefined || firstOffset === undefined) throw new Refused('unreadable');
    this.objectCount += count;
    if (this.objectCount > MAX_OBJECTS) throw new Refused('too-many-objects');
    const text = await this.decode(stream);
    this.decoded.set(stream.num, text);
    const pairs: Array<{ num: number; at: number }> = [];
    let p = 0;
    for (let i = 0; i < count; i++) {
      const num = ValueScanner.rawInt(text, this.scanner.skip(p, text));
      const offset = num && ValueScanner.rawInt(text, this.scanner.skip(num.end, text));
      if (!offset) throw new Refused('unreadable');
      pairs.push({ num: num.value, at: firstOffset + offset.value });
      p = offset.end;
    }
    // In order and apart: each object is read once, so the work is the data's length.
    let end = p;
    for (const { num, at } of pairs) {
      if (at < end || at > text.length) throw new Refused('unreadable');
      const scanned = this.scanner.value(at, false, text);
      if (!scanned.ok) throw new Refused(scanned.reason);
      end = scanned.end;
      this.structure.objects.set(num, { in: 'objstm', stream: stream.num, index: at });
      this.built.delete(num);
    }
  }

  /** pdf-lib's PDFXRefStreamParser reads Σ(/Index lengths) or /Size entries of Σ/W bytes each. */
  async xrefStream(stream: StreamObject): Promise<void> {
    const widths = this.direct(first(stream.dict, 'W'));
    if (widths?.kind !== 'array') throw new Refused('unreadable');
    const entryBytes = widths.items.reduce((sum, item) => sum + (numberOf(this.direct(item)) ?? Number.NaN), 0);
    const index = this.direct(first(stream.dict, 'Index'));
    const lengths = index?.kind === 'array' ? index.items.filter((_, i) => i % 2 === 1) : [first(stream.dict, 'Size')];
    const entries = lengths.reduce((sum: number, item) => sum + (numberOf(this.direct(item)) ?? Number.NaN), 0);
    if (!Number.isFinite(entryBytes) || !Number.isFinite(entries) || entryBytes < 1) throw new Refused('unreadable');
    if (entries > MAX_OBJECTS) throw new Refused('too-many-objects');
    const data = await this.decode(stream);
    // A PNG predictor adds a byte per row; either way the data must hold every entry it lists.
    if (entries * entryBytes > data.length) throw new Refused('unreadable');
  }

  /** Walks every trailer's /Root → /Pages tree as pdf-lib does (no memory of visited nodes), counting. */
  pageTree(maxPages: number): void {
    const roots = new Set<number>();
    for (const trailer of this.structure.trailers) {
      const root = first(trailer, 'Root');
      if (root?.kind === 'ref') roots.add(root.num);
    }
    let visits = 0;
    for (const root of roots) {
      const catalog = this.resolve(root);
      const pages = catalog?.kind === 'dict' ? first(catalog.entries, 'Pages') : undefined;
      if (pages?.kind !== 'ref') continue;
      let leaves = 0;
      const stack: Array<{ kids: PdfValue[]; next: number }> = [{ kids: [pages], next: 0 }];
      while (stack.length > 0) {
        const top = stack[stack.length - 1]!;
        const kid = top.kids[top.next++];
        if (!kid) {
          stack.pop();
          continue;
        }
        if (++visits > MAX_PAGE_TREE_VISITS) throw new Refused('page-tree');
        const node = this.direct(kid);
        if (node?.kind !== 'dict') continue;
        const type = first(node.entries, 'Type');
        if (type?.kind === 'name' && type.name === 'Page' && ++leaves > maxPages) throw new Refused('too-many-pages');
        if (type?.kind === 'name' && type.name === 'Pages') {
          const list = this.direct(first(node.entries, 'Kids'));
          if (list?.kind === 'array') stack.push({ kids: list.items, next: 0 });
        }
      }
    }
  }

  /**
   * Every object a `/Contents` key names, anywhere in the file or its object streams: not only the
   * pages the trailer's tree reaches (a file without a trailer still has its pages found by
   * pdf.js). A reference to an array of references counts each of them.
   */
  private contentRefs(): Set<number> {
    const refs = new Set<number>();
    const texts = [this.structure.scanner.text, ...this.decoded.values()];
    for (const text of texts) {
      for (const match of text.matchAll(/\/Contents\s*(?:(\d{1,15})\s+\d{1,15}\s+R|\[([^\]]{0,100000})\])/g)) {
        const named = match[1] ? [Number(match[1])] : [...match[2]!.matchAll(/(\d{1,15})\s+\d{1,15}\s+R/g)].map((ref) => Number(ref[1]));
        for (const num of named) {
          refs.add(num);
          if (this.structure.streams.has(num)) continue;
          const target = this.resolve(num);
          if (target?.kind === 'array') for (const item of target.items) if (item.kind === 'ref') refs.add(item.num);
        }
      }
    }
    return refs;
  }

  /** Decodes (and drops) the pages' content streams and every form XObject under one budget. */
  async content(): Promise<void> {
    const budget = new ByteBudget(MAX_CONTENT_BYTES);
    const contents = this.contentRefs();
    for (const [num, stream] of this.structure.streams) {
      const subtype = first(stream.dict, 'Subtype');
      const form = subtype?.kind === 'name' && subtype.name === 'Form';
      if (form || contents.has(num)) await this.decode(stream, budget, false);
    }
  }
}

/** Object streams, xref streams, the page tree and the page content, bounded (see above). */
export async function checkEmbedded(structure: PdfStructure, file: Buffer, maxPages: number): Promise<EmbeddedCheck> {
  const embedded = new Embedded(structure, file);
  try {
    for (const stream of structure.objectStreams) await embedded.objectStream(stream);
    for (const stream of structure.xrefStreams) await embedded.xrefStream(stream);
    embedded.pageTree(maxPages);
    await embedded.content();
    return { ok: true };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.reason };
    throw error;
  }
}
