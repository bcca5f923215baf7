import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { readImageHeader } from '../../lib/card/image-header.js';

/** The image size read from the header alone (docs/finding-coverage.md#images), for the three formats. */

const segment = (marker: number, payload: number[]) => [0xff, marker, ((payload.length + 2) >> 8) & 0xff, (payload.length + 2) & 0xff, ...payload];
/** SOI, an APP0 (JFIF) and an APP1 to skip, then a start-of-frame with `height` and `width`. */
function jpeg(marker: number, width: number, height: number, tail: number[] = []): Uint8Array {
  const app0 = segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const app1 = segment(0xe1, new Array(40).fill(7));
  const sof = segment(marker, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Uint8Array.from([0xff, 0xd8, ...app0, ...app1, ...sof, ...tail]);
}

const riff = (chunk: string, payload: number[]) => {
  const body = Buffer.concat([Buffer.from('WEBP'), Buffer.from(chunk), Buffer.from([payload.length, 0, 0, 0]), Buffer.from(payload)]);
  const head = Buffer.alloc(8);
  head.write('RIFF');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
};
const le = (value: number, bytes: number) => Array.from({ length: bytes }, (_, i) => (value >> (8 * i)) & 0xff);

describe('readImageHeader', () => {
  it('reads a PNG IHDR (the committed sample cards are 1,000 × 630)', () => {
    const png = readFileSync(new URL('../../infra/dev/sandbox/cards/medicare.png', import.meta.url));
    expect(readImageHeader(png)).toEqual({ format: 'png', mediaType: 'image/png', width: 1000, height: 630 });
  });

  it('refuses a PNG whose IHDR was edited (its CRC no longer matches)', () => {
    const png = Buffer.from(readFileSync(new URL('../../infra/dev/sandbox/cards/medicare.png', import.meta.url)));
    png.writeUInt32BE(9_000, 16);
    expect(readImageHeader(png)).toBeUndefined();
    png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
    expect(readImageHeader(png)?.width).toBe(9_000);
  });

  it.each([0xc0, 0xc1, 0xc2, 0xcf])('reads a JPEG start-of-frame %s after skipping APPn segments', (marker) => {
    expect(readImageHeader(jpeg(marker, 1600, 1009))).toEqual({ format: 'jpeg', mediaType: 'image/jpeg', width: 1600, height: 1009 });
  });

  it('does not take DHT (C4) for a frame, and refuses a JPEG with no frame before its scan or cut short', () => {
    const dhtOnly = Uint8Array.from([0xff, 0xd8, ...segment(0xc4, [0, 1, 2, 3]), ...segment(0xda, [1, 2, 3])]);
    expect(readImageHeader(dhtOnly)).toBeUndefined();
    const whole = jpeg(0xc0, 1600, 1009);
    expect(readImageHeader(whole.subarray(0, whole.length - 5))).toBeUndefined();
    expect(readImageHeader(jpeg(0xc0, 0, 1009))).toBeUndefined();
  });

  it('reads WebP VP8, VP8L and VP8X headers', () => {
    const vp8 = riff('VP8 ', [0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, ...le(1600, 2), ...le(1009, 2), 0, 0]);
    expect(readImageHeader(vp8)).toEqual({ format: 'webp', mediaType: 'image/webp', width: 1600, height: 1009 });
    const bits = (1600 - 1) | ((1009 - 1) << 14);
    const vp8l = riff('VP8L', [0x2f, ...le(bits, 4), 0, 0, 0, 0, 0]);
    expect(readImageHeader(vp8l)).toMatchObject({ width: 1600, height: 1009 });
    const vp8x = riff('VP8X', [0, 0, 0, 0, ...le(8999, 3), ...le(599, 3)]);
    expect(readImageHeader(vp8x)).toMatchObject({ width: 9000, height: 600 });
  });

  it('refuses a WebP whose RIFF size is not its length, and anything else', () => {
    const vp8x = riff('VP8X', [0, 0, 0, 0, ...le(999, 3), ...le(599, 3)]);
    expect(readImageHeader(Buffer.concat([vp8x, Buffer.alloc(100)]))).toBeUndefined();
    expect(readImageHeader(Buffer.from('GIF89a........................'))).toBeUndefined();
    expect(readImageHeader(new Uint8Array(0))).toBeUndefined();
  });
});
