import { describe, expect, it } from '@jest/globals';
import { deflateRawSync, deflateSync } from 'node:zlib';
import { decodePDFRawStream, PDFContext, PDFRawStream, type PDFDict } from 'pdf-lib';
import { ByteBudget, runFilter, type Keep } from '../../../lib/letter/intake/pdf-filters.js';
import { lzwCodeWriter, lzwZeros, runLengthZeros } from '../../fixtures/letter/bombs.js';
import { rng } from '../../fuzz/generate.js';

const context = PDFContext.create();

/** What pdf-lib decodes the same bytes to: the reference for every filter here. */
function pdfLibDecode(filter: string, data: Uint8Array): Uint8Array {
  return decodePDFRawStream(PDFRawStream.of(context.obj({ Filter: filter }) as PDFDict, data)).decode();
}

async function decode(filter: string, data: Buffer, limit = 1 << 30, keep: Keep = 'all') {
  const budget = new ByteBudget(limit);
  const result = await runFilter(filter, [data], {}, budget, keep);
  return { result, used: budget.used, bytes: result.kind === 'output' ? Buffer.concat(result.chunks) : undefined };
}

/** LZW codes for arbitrary bytes (EarlyChange 1), as a PDF writer would produce them. */
function lzwEncode(input: Uint8Array): Buffer {
  const writer = lzwCodeWriter();
  let width = 9;
  const put = (code: number) => writer.put(code, width);
  let dict = new Map<string, number>();
  let next = 258;
  const reset = () => {
    dict = new Map();
    next = 258;
  };
  put(256);
  let w = '';
  for (const byte of input) {
    const wc = w + String.fromCharCode(byte);
    if (wc.length === 1 || dict.has(wc)) {
      w = wc;
      continue;
    }
    put(w.length === 1 ? w.charCodeAt(0) : dict.get(w)!);
    dict.set(wc, next++);
    if (next + 1 > 1 << width && width < 12) width++;
    if (next >= 4094) {
      put(256);
      width = 9;
      reset();
    }
    w = String.fromCharCode(byte);
  }
  if (w) put(w.length === 1 ? w.charCodeAt(0) : dict.get(w)!);
  put(257);
  return writer.finish();
}

function sample(seed: number, length: number): Buffer {
  const r = rng(seed);
  // Few distinct bytes with runs, so LZW and RunLength have something to do.
  return Buffer.from(Array.from({ length }, () => (r.chance(0.7) ? 0x41 : r.int(256))));
}

function runLengthEncode(input: Uint8Array): Buffer {
  const out: number[] = [];
  for (let i = 0; i < input.length; ) {
    let run = 1;
    while (i + run < input.length && input[i + run] === input[i] && run < 128) run++;
    if (run > 1) {
      out.push(257 - run, input[i]!);
      i += run;
    } else {
      out.push(0, input[i]!);
      i++;
    }
  }
  out.push(128);
  return Buffer.from(out);
}

function ascii85Encode(input: Uint8Array): Buffer {
  let out = '';
  for (let i = 0; i < input.length; i += 4) {
    const group = [...input.subarray(i, i + 4)];
    const n = group.length;
    while (group.length < 4) group.push(0);
    let value = ((group[0]! << 24) | (group[1]! << 16) | (group[2]! << 8) | group[3]!) >>> 0;
    if (value === 0 && n === 4) {
      out += 'z';
      continue;
    }
    const digits: string[] = [];
    for (let k = 0; k < 5; k++) {
      digits.unshift(String.fromCharCode((value % 85) + 33));
      value = Math.floor(value / 85);
    }
    out += digits.slice(0, n + 1).join('');
  }
  return Buffer.from(`${out}~>`, 'latin1');
}

describe('bounded PDF filters', () => {
  it.each([1, 2, 3])('decode exactly what pdf-lib decodes (seed %i)', async (seed) => {
    const data = Buffer.concat([sample(seed, 20_000), Buffer.alloc(3000)]);
    const cases: Array<[string, Buffer]> = [
      ['FlateDecode', deflateSync(data)],
      ['LZWDecode', lzwEncode(data)],
      ['RunLengthDecode', runLengthEncode(data)],
      ['ASCIIHexDecode', Buffer.from(`${data.toString('hex').replace(/(.{64})/g, '$1\n')}>`, 'latin1')],
      ['ASCII85Decode', ascii85Encode(data)],
    ];
    for (const [filter, encoded] of cases) {
      const ours = await decode(filter, encoded);
      expect({ filter, equal: ours.bytes?.equals(Buffer.from(pdfLibDecode(filter, encoded))) }).toEqual({ filter, equal: true });
      expect({ filter, equal: ours.bytes?.equals(data) }).toEqual({ filter, equal: true });
      expect(ours.used).toBe(data.length);
    }
  });

  it('count the generated zero runs the same way pdf-lib decodes them', async () => {
    for (const n of [1, 4097, 1_000_000]) {
      for (const [filter, encoded] of [
        ['LZWDecode', lzwZeros(n)],
        ['RunLengthDecode', runLengthZeros(n)],
      ] as const) {
        const ours = await decode(filter, encoded, 1 << 30, 'none');
        expect(ours.used).toBe(pdfLibDecode(filter, encoded).length);
      }
    }
  });

  it('stop at the first byte past the budget, for every filter and both Flate paths', async () => {
    const zeros = Buffer.alloc(4 * 1024 * 1024);
    const cases: Array<[string, Buffer]> = [
      ['FlateDecode', deflateSync(zeros.subarray(0, 4096))],
      ['FlateDecode', deflateSync(zeros)],
      ['LZWDecode', lzwZeros(zeros.length)],
      ['RunLengthDecode', runLengthZeros(zeros.length)],
      ['ASCII85Decode', Buffer.from('z'.repeat(1_000_000), 'latin1')],
    ];
    for (const [filter, encoded] of cases) {
      const { result, used } = await decode(filter, encoded, 1000, 'none');
      expect({ filter, kind: result.kind }).toEqual({ filter, kind: 'over' });
      // Streamed Flate counts whole 512 KiB chunks; the others stop within one run.
      expect(used).toBeLessThanOrEqual(1000 + 512 * 1024);
    }
  });

  it('count damaged or truncated Flate data up to the damage instead of failing open', async () => {
    const full = deflateSync(Buffer.alloc(3 * 1024 * 1024));
    const truncated = full.subarray(0, Math.floor(full.length / 2));
    const { result, used } = await decode('FlateDecode', truncated, 1 << 30, 'none');
    expect(result.kind).toBe('output');
    expect(used).toBeGreaterThan(1024 * 1024);
    const damaged = Buffer.concat([truncated, Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff])]);
    expect((await decode('FlateDecode', damaged, 1 << 30, 'none')).used).toBeGreaterThan(1024 * 1024);
  });

  it('inflate Flate data without a zlib header raw, as lenient readers do', async () => {
    const data = Buffer.alloc(100_000, 7);
    expect((await decode('FlateDecode', deflateRawSync(data))).bytes?.equals(data)).toBe(true);
  });

  it('treat image codecs and unknown names (including Object.prototype names) as opaque', async () => {
    for (const filter of ['DCTDecode', 'JPXDecode', 'JBIG2Decode', 'CCITTFaxDecode', 'Crypt', 'toString', '__proto__', 'constructor']) {
      expect((await decode(filter, Buffer.from('xyz'))).result.kind).toBe('opaque');
    }
  });
});
