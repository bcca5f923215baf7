import { constants, createInflate, createInflateRaw, inflateRawSync, inflateSync } from 'node:zlib';

/**
 * PDF stream filters run under a byte budget (docs/security.md#pdf-bombs): every byte a filter
 * produces is counted as it is produced, and the filter stops the moment the budget is spent. Flate
 * runs through node:zlib (a synchronous fast path for small outputs, a streaming inflater that
 * keeps nothing it does not have to for large ones); LZW, RunLength, ASCIIHex and ASCII85, which
 * pdf-lib also decodes, are implemented here. Image codecs (DCT, JPX, JBIG2, CCITT) are opaque:
 * nothing in this service decodes them, so their bytes are not decompressed here either.
 */

export class ByteBudget {
  used = 0;
  constructor(readonly limit: number) {}
  /** Counts bytes produced; false once the total passes the limit. */
  take(bytes: number): boolean {
    this.used += bytes;
    return this.used <= this.limit;
  }
  get remaining(): number {
    return Math.max(0, this.limit - this.used);
  }
}

/**
 * What a stage's caller needs of its output: all of it (another filter follows), none (it is only
 * counted), or all only if it starts like a zlib stream (probing a stream whose filters are unknown).
 */
export type Keep = 'all' | 'none' | 'if-zlib';

export type StageResult = { kind: 'output'; chunks: Buffer[] } | { kind: 'over' } | { kind: 'opaque' };

export interface FilterParams {
  /** LZWDecode's EarlyChange (default 1). */
  earlyChange?: number;
}

const OVER: StageResult = { kind: 'over' };
const OPAQUE: StageResult = { kind: 'opaque' };
const output = (chunks: Buffer[]): StageResult => ({ kind: 'output', chunks });

/**
 * Outputs at most this large are inflated in one synchronous call; larger ones stream in
 * CHUNK_BYTES pieces (512 KiB: few thread-pool round trips, little memory, as each is counted and dropped).
 */
const FAST_OUTPUT_BYTES = 1024 * 1024;
const CHUNK_BYTES = 512 * 1024;

/** A zlib header: deflate method, window ≤ 32 KiB, check bits (RFC 1950 §2.2). */
export function looksLikeZlib(data: Uint8Array): boolean {
  return data.length >= 2 && (data[0]! & 0x0f) === 8 && data[0]! >> 4 <= 7 && ((data[0]! << 8) | data[1]!) % 31 === 0;
}

const keeps = (keep: Keep, first: Uint8Array) => keep === 'all' || (keep === 'if-zlib' && looksLikeZlib(first));

function concat(chunks: Buffer[]): Buffer {
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

function inflateStreaming(input: Buffer[], raw: boolean, budget: ByteBudget, keep: Keep): Promise<StageResult> {
  return new Promise((resolve) => {
    const inflater = raw ? createInflateRaw({ chunkSize: CHUNK_BYTES }) : createInflate({ chunkSize: CHUNK_BYTES });
    const chunks: Buffer[] = [];
    let keeping: boolean | undefined;
    let settled = false;
    const finish = (result: StageResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    inflater.on('data', (chunk: Buffer) => {
      if (settled) return;
      if (!budget.take(chunk.length)) {
        finish(OVER);
        inflater.destroy();
        return;
      }
      keeping ??= keeps(keep, chunk);
      if (keeping) chunks.push(chunk);
    });
    // Damaged data ends the stream; what came out before the damage still counts.
    inflater.on('error', () => finish(output(chunks)));
    inflater.on('end', () => finish(output(chunks)));
    inflater.on('close', () => finish(output(chunks)));
    for (const chunk of input) inflater.write(chunk);
    inflater.end();
  });
}

async function flate(input: Buffer[], budget: ByteBudget, keep: Keep): Promise<StageResult> {
  const size = input.reduce((sum, chunk) => sum + chunk.length, 0);
  if (size === 0) return output([]);
  const first = input[0]!;
  // pdf-lib refuses a stream without a zlib header; other readers inflate it raw, so it is counted raw.
  const raw = !looksLikeZlib(first.length >= 2 ? first : concat(input).subarray(0, 2));
  if (size <= FAST_OUTPUT_BYTES) {
    const cap = Math.min(FAST_OUTPUT_BYTES, budget.remaining);
    try {
      const data = concat(input);
      const out = raw
        ? inflateRawSync(data, { maxOutputLength: Math.max(1, cap), finishFlush: constants.Z_SYNC_FLUSH })
        : inflateSync(data, { maxOutputLength: Math.max(1, cap), finishFlush: constants.Z_SYNC_FLUSH });
      if (!budget.take(out.length)) return OVER;
      return output(out.length > 0 && keeps(keep, out) ? [out] : []);
    } catch {
      // Larger than the fast path allows, or damaged: the streaming inflater counts what comes out.
    }
  }
  return inflateStreaming(input, raw, budget, keep);
}

/** Reads bytes across a list of chunks without joining them (an intermediate output may be large). */
class ByteReader {
  private chunk = 0;
  private offset = 0;
  constructor(private readonly chunks: Buffer[]) {}
  /** The next byte, or -1 at the end. */
  next(): number {
    while (this.chunk < this.chunks.length) {
      const current = this.chunks[this.chunk]!;
      if (this.offset < current.length) return current[this.offset++]!;
      this.chunk++;
      this.offset = 0;
    }
    return -1;
  }
}

/** Collects output in CHUNK_BYTES buffers (or only counts it). */
class Sink {
  readonly chunks: Buffer[] = [];
  private current = Buffer.allocUnsafe(0);
  private filled = 0;
  constructor(
    private readonly budget: ByteBudget,
    readonly keep: boolean,
  ) {}
  /** Reserves `length` bytes; false when the budget is spent. */
  reserve(length: number): boolean {
    return this.budget.take(length);
  }
  put(byte: number): void {
    if (!this.keep) return;
    if (this.filled === this.current.length) this.flush(CHUNK_BYTES);
    this.current[this.filled++] = byte;
  }
  private flush(nextSize: number): void {
    if (this.filled > 0) this.chunks.push(this.current.subarray(0, this.filled));
    this.current = Buffer.allocUnsafe(nextSize);
    this.filled = 0;
  }
  result(): StageResult {
    this.flush(0);
    return output(this.chunks);
  }
}

function lzw(data: ByteReader, earlyChange: number, sink: Sink): StageResult {
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const length = new Int32Array(4096);
  const firstByte = new Uint8Array(4096);
  for (let i = 0; i < 256; i++) {
    prefix[i] = -1;
    suffix[i] = i;
    length[i] = 1;
    firstByte[i] = i;
  }
  const scratch = new Uint8Array(4096);
  const emit = (code: number): boolean => {
    if (!sink.reserve(length[code]!)) return false;
    if (!sink.keep) return true;
    let n = length[code]!;
    for (let c = code; c >= 0; c = prefix[c]!) scratch[--n] = suffix[c]!;
    for (let i = 0; i < length[code]!; i++) sink.put(scratch[i]!);
    return true;
  };
  let width = 9;
  let next = 258;
  let prev = -1;
  let acc = 0;
  let bits = 0;
  for (;;) {
    while (bits < width) {
      const byte = data.next();
      if (byte < 0) return sink.result();
      acc = ((acc << 8) | byte) & 0xffffff;
      bits += 8;
    }
    const code = (acc >>> (bits - width)) & ((1 << width) - 1);
    bits -= width;
    if (code === 256) {
      width = 9;
      next = 258;
      prev = -1;
      continue;
    }
    if (code === 257) return sink.result();
    if (prev === -1) {
      if (code > 255) return sink.result();
      if (!emit(code)) return OVER;
      prev = code;
      continue;
    }
    if (code > next || (code === next && next >= 4096)) return sink.result();
    if (next < 4096) {
      const first = code < next ? firstByte[code]! : firstByte[prev]!;
      prefix[next] = prev;
      suffix[next] = first;
      length[next] = length[prev]! + 1;
      firstByte[next] = firstByte[prev]!;
      next++;
    }
    if (!emit(code)) return OVER;
    if (next + earlyChange >= 1 << width && width < 12) width++;
    prev = code;
  }
}

function runLength(data: ByteReader, sink: Sink): StageResult {
  for (let n = data.next(); n >= 0 && n !== 128; n = data.next()) {
    if (n < 128) {
      if (!sink.reserve(n + 1)) return OVER;
      for (let k = 0; k <= n; k++) {
        const byte = data.next();
        if (byte < 0) return sink.result();
        sink.put(byte);
      }
    } else {
      const byte = data.next();
      if (byte < 0) break;
      const count = 257 - n;
      if (!sink.reserve(count)) return OVER;
      if (sink.keep) for (let k = 0; k < count; k++) sink.put(byte);
    }
  }
  return sink.result();
}

function asciiHex(data: ByteReader, sink: Sink): StageResult {
  let high = -1;
  for (let c = data.next(); c >= 0; c = data.next()) {
    if (c === 0x3e) break;
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 55 : c >= 0x61 && c <= 0x66 ? c - 87 : -1;
    if (digit < 0) continue;
    if (high < 0) high = digit;
    else {
      if (!sink.reserve(1)) return OVER;
      sink.put((high << 4) | digit);
      high = -1;
    }
  }
  if (high >= 0) {
    if (!sink.reserve(1)) return OVER;
    sink.put(high << 4);
  }
  return sink.result();
}

function ascii85(data: ByteReader, sink: Sink): StageResult {
  const group: number[] = [];
  const flush = (count: number): boolean => {
    while (group.length < 5) group.push(84);
    let value = 0;
    for (const digit of group) value = value * 85 + digit;
    if (!sink.reserve(count)) return false;
    for (let k = 0; k < count; k++) sink.put(Math.floor(value / 256 ** (3 - k)) & 0xff);
    group.length = 0;
    return true;
  };
  for (let c = data.next(); c >= 0; c = data.next()) {
    if (c === 0x7e) break;
    if (c === 0x7a && group.length === 0) {
      if (!sink.reserve(4)) return OVER;
      for (let k = 0; k < 4; k++) sink.put(0);
      continue;
    }
    if (c < 0x21 || c > 0x75) continue;
    group.push(c - 0x21);
    if (group.length === 5 && !flush(4)) return OVER;
  }
  if (group.length > 1 && !flush(group.length - 1)) return OVER;
  return sink.result();
}

type Filter = (input: Buffer[], params: FilterParams, budget: ByteBudget, keep: Keep) => StageResult | Promise<StageResult>;

const sinkOf = (budget: ByteBudget, keep: Keep) => new Sink(budget, keep !== 'none');

/** Full names and the abbreviations (ISO 32000-1 Table 94) that some readers also accept. */
const FILTERS: Record<string, Filter> = {
  FlateDecode: (input, _params, budget, keep) => flate(input, budget, keep),
  LZWDecode: (input, params, budget, keep) => lzw(new ByteReader(input), params.earlyChange === 0 ? 0 : 1, sinkOf(budget, keep)),
  RunLengthDecode: (input, _params, budget, keep) => runLength(new ByteReader(input), sinkOf(budget, keep)),
  ASCIIHexDecode: (input, _params, budget, keep) => asciiHex(new ByteReader(input), sinkOf(budget, keep)),
  ASCII85Decode: (input, _params, budget, keep) => ascii85(new ByteReader(input), sinkOf(budget, keep)),
};
FILTERS.Fl = FILTERS.FlateDecode!;
FILTERS.LZW = FILTERS.LZWDecode!;
FILTERS.RL = FILTERS.RunLengthDecode!;
FILTERS.AHx = FILTERS.ASCIIHexDecode!;
FILTERS.A85 = FILTERS.ASCII85Decode!;

/** Runs one filter over `input`, counting its output against `budget`. */
export async function runFilter(name: string, input: Buffer[], params: FilterParams, budget: ByteBudget, keep: Keep): Promise<StageResult> {
  const filter = Object.hasOwn(FILTERS, name) ? FILTERS[name] : undefined;
  return filter ? filter(input, params, budget, keep) : OPAQUE;
}

export type Decoded = { kind: 'data'; bytes: Buffer } | { kind: 'over' } | { kind: 'opaque' };

/** Runs a whole filter chain; the final output is kept unless `keepLast` is false (then it is only counted). */
export async function decodeChain(names: string[], params: FilterParams[], data: Buffer, budget: ByteBudget, keepLast = true): Promise<Decoded> {
  let input = [data];
  for (let i = 0; i < names.length; i++) {
    const result = await runFilter(names[i]!, input, params[i] ?? {}, budget, keepLast || i < names.length - 1 ? 'all' : 'none');
    if (result.kind === 'over') return { kind: 'over' };
    if (result.kind === 'opaque') return { kind: 'opaque' };
    input = result.chunks;
  }
  return { kind: 'data', bytes: concat(input) };
}
