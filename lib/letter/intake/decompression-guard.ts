import { ByteBudget, looksLikeZlib, runFilter, type FilterParams, type Keep } from './pdf-filters.js';
import { parsePdfValue, type PdfValue } from './pdf-syntax.js';
import { lowerBound, streamKeywords, type StreamKeywords } from './stream-keywords.js';

/**
 * The gate every letter PDF passes before anything parses it (docs/security.md#pdf-bombs).
 *
 * A 4 KB PDF can hold streams that inflate to gigabytes; pdf-lib inflates object streams while it
 * loads, and a text extractor inflates content streams. This guard finds every stream in the raw
 * bytes and runs its filters (pdf-filters.ts) under one shared budget: the bytes every filter
 * produces, across all streams, are counted as they are produced, and the check stops at the
 * first byte past MAX_DECOMPRESSED_BYTES. Nothing else reads the file until it said yes.
 *
 * It does not trust the file's structure: every `stream` keyword is measured, whether or not a
 * cross-reference table points at it; a wrong /Length falls back to
 * the next `endstream` the way pdf-lib does, an unterminated stream runs to the end of the file,
 * and a stream whose filters cannot be read (an unreadable dictionary, a /Filter held in an object
 * stream) is probed: inflated as long as its output still looks like zlib data.
 */

/** Total bytes all of a file's streams may decompress to. */
export const MAX_DECOMPRESSED_BYTES = 64 * 1024 * 1024;
/** More streams than this are refused unmeasured; a 100-page scan holds a few hundred. */
const MAX_STREAMS = 20_000;

export type DecompressionCheck =
  | { ok: true; decompressedBytes: number; streams: number }
  | { ok: false; reason: 'too-much-data' | 'too-many-streams' | 'too-complex'; decompressedBytes: number; streams: number };

/** How far back from `stream` a dictionary may start, and how many `<<` are tried as its start. */
const MAX_DICT_BYTES = 16 * 1024;
const MAX_DICT_STARTS = 16;
/** Parsing work (characters) across the whole file; a file needing more is refused, not half-read. */
const MAX_SYNTAX_WORK = 64 * 1024 * 1024;
/** Probing a stream with unknown filters stops after this many nested zlib layers. */
const MAX_PROBE_LAYERS = 8;
/** pdf-lib's fallback for a wrong /Length walks nested stream/endstream keywords; this bounds the walk. */
const MAX_NESTING_STEPS = 1_000;

const isWhite = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;

class Reader {
  work = 0;
  private objects?: Map<number, number>;
  constructor(
    readonly text: string,
    readonly keywords: StreamKeywords,
  ) {}

  get overworked(): boolean {
    return this.work > MAX_SYNTAX_WORK;
  }

  /** The dictionary ending just before the `stream` keyword at `at`, if one does. */
  dictionaryBefore(at: number): Map<string, PdfValue[]> | undefined {
    const text = this.text;
    let close = at - 1;
    while (close >= 0 && isWhite(text.charCodeAt(close))) close--;
    if (close < 1 || text.charCodeAt(close) !== 0x3e || text.charCodeAt(close - 1) !== 0x3e) return undefined;
    // Try the nearest `<<` first: a nested dictionary's parse ends before `close` and is passed over.
    const floor = Math.max(0, close - MAX_DICT_BYTES);
    let tries = 0;
    for (let open = text.lastIndexOf('<<', close - 2); open >= floor && tries < MAX_DICT_STARTS; open = text.lastIndexOf('<<', open - 1), tries++) {
      this.work += close - open;
      const parsed = parsePdfValue(text, open, close + 1);
      if (parsed && parsed.end === close + 1 && parsed.value.kind === 'dict') return parsed.value.entries;
      if (open === 0) break;
    }
    return undefined;
  }

  /** An indirect object's value (the last definition in the file wins, as with incremental updates). */
  resolve(value: PdfValue | undefined): PdfValue | undefined {
    if (value?.kind !== 'ref') return value;
    if (!this.objects) {
      this.objects = new Map();
      for (const match of this.text.matchAll(/(\d+)\s+\d+\s+obj\b/g)) {
        this.objects.set(Number(match[1]), match.index + match[0].length);
        this.work += match[0].length;
      }
    }
    const start = this.objects.get(value.num);
    if (start === undefined) return undefined;
    this.work += MAX_DICT_BYTES;
    const parsed = parsePdfValue(this.text, start, Math.min(this.text.length, start + MAX_DICT_BYTES));
    return parsed?.value.kind === 'ref' ? undefined : parsed?.value;
  }

  /** Where the stream data starting at `start` ends: /Length if `endstream` follows it, else pdf-lib's fallback. */
  dataEnd(start: number, lengthValue: PdfValue | undefined): number {
    const text = this.text;
    if (lengthValue?.kind === 'number' && Number.isInteger(lengthValue.value) && lengthValue.value >= 0) {
      let p = start + lengthValue.value;
      while (p < text.length && isWhite(text.charCodeAt(p))) p++;
      if (text.startsWith('endstream', p)) return start + lengthValue.value;
    }
    // Walk stream/endstream keywords after `start`: a nested `stream` needs one more `endstream`.
    let depth = 1;
    let s = lowerBound(this.keywords.streams, start);
    let e = lowerBound(this.keywords.ends, start);
    for (let steps = 0; steps < MAX_NESTING_STEPS; steps++) {
      const nextStream = this.keywords.streams[s] ?? Infinity;
      const nextEnd = this.keywords.ends[e] ?? Infinity;
      if (nextEnd === Infinity && nextStream === Infinity) break;
      if (nextStream < nextEnd) {
        depth++;
        s++;
      } else {
        depth--;
        e++;
        if (depth === 0) {
          let end = nextEnd;
          if (text.charCodeAt(end - 1) === 0x0a) end--;
          if (text.charCodeAt(end - 1) === 0x0d) end--;
          return Math.max(start, end);
        }
      }
    }
    // Unterminated (or nested past the bound): everything to the end of the file.
    return text.length;
  }
}

/** Where the data of the stream whose keyword is at `at` begins (after `stream` and its end of line). */
function dataStart(text: string, at: number): number {
  let p = at + 6;
  if (text.charCodeAt(p) === 0x0d) p++;
  if (text.charCodeAt(p) === 0x0a) p++;
  return p;
}

type Chain = { names: string[]; params: FilterParams[] } | 'probe';

/** The filter chains a dictionary names (more than one when a key is repeated). */
function chainsOf(dict: Map<string, PdfValue[]>, reader: Reader): Chain[] {
  const filters = dict.get('Filter') ?? [];
  if (filters.length === 0) return [{ names: [], params: [] }];
  const params = (dict.get('DecodeParms') ?? []).map((v) => reader.resolve(v));
  return filters.map((raw): Chain => {
    const filter = reader.resolve(raw);
    if (!filter) return 'probe';
    const names = filter.kind === 'name' ? [filter] : filter.kind === 'array' ? filter.items.map((item) => reader.resolve(item)) : [];
    if (names.some((n) => n?.kind !== 'name')) return 'probe';
    const param = params[0];
    const paramList = param?.kind === 'array' ? param.items.map((item) => reader.resolve(item)) : [param];
    return {
      names: names.map((n) => (n as { name: string }).name),
      params: names.map((_, i) => {
        const p = paramList[i];
        const early = p?.kind === 'dict' ? p.entries.get('EarlyChange')?.[0] : undefined;
        return early?.kind === 'number' ? { earlyChange: early.value } : {};
      }),
    };
  });
}

/** Runs a chain over one stream's data; false when the budget ran out. */
async function measure(chain: Chain, data: Buffer, budget: ByteBudget): Promise<boolean> {
  let input = [data];
  if (chain === 'probe') {
    for (let layer = 0; layer < MAX_PROBE_LAYERS && input.length > 0 && looksLikeZlib(input[0]!); layer++) {
      const result = await runFilter('FlateDecode', input, {}, budget, 'if-zlib');
      if (result.kind === 'over') return false;
      if (result.kind !== 'output') return true;
      input = result.chunks;
    }
    return true;
  }
  for (let i = 0; i < chain.names.length; i++) {
    const keep: Keep = i === chain.names.length - 1 ? 'none' : 'all';
    const result = await runFilter(chain.names[i]!, input, chain.params[i] ?? {}, budget, keep);
    if (result.kind === 'over') return false;
    if (result.kind === 'opaque') return true;
    input = result.chunks;
    if (input.length === 0) return true;
  }
  return true;
}

/** Measures what the PDF's streams decompress to, stopping as soon as the total passes `limit`. */
export async function checkPdfDecompression(bytes: Uint8Array, limit: number = MAX_DECOMPRESSED_BYTES): Promise<DecompressionCheck> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = buffer.toString('latin1');
  const keywords = streamKeywords(text);
  const reader = new Reader(text, keywords);
  const budget = new ByteBudget(limit);
  let streams = 0;
  const refuse = (reason: 'too-much-data' | 'too-many-streams' | 'too-complex'): DecompressionCheck => ({
    ok: false,
    reason,
    decompressedBytes: budget.used,
    streams,
  });

  for (const at of keywords.streams) {
    const dict = reader.dictionaryBefore(at);
    if (reader.overworked) return refuse('too-complex');
    // A `stream` keyword after no readable dictionary is probed: a lenient reader may still inflate it.
    streams++;
    if (streams > MAX_STREAMS) return refuse('too-many-streams');
    const start = dataStart(text, at);
    const end = reader.dataEnd(start, dict ? reader.resolve(dict.get('Length')?.[0]) : undefined);
    const data = buffer.subarray(start, end);
    const chains: Chain[] = dict ? chainsOf(dict, reader) : ['probe'];
    for (const chain of chains) {
      if (!(await measure(chain, data, budget))) return refuse('too-much-data');
    }
    if (reader.overworked) return refuse('too-complex');
  }
  return { ok: true, decompressedBytes: budget.used, streams };
}
