import { crc32 } from 'node:zlib';

/**
 * The size of a JPEG, PNG or WebP image read from its header alone (docs/finding-coverage.md#images),
 * before anything else looks at the bytes: no decoder runs, nothing is decompressed. A header that is
 * cut short, names a size of zero, contradicts itself (a PNG header whose checksum does not match its
 * bytes, a WebP whose RIFF size is not the file's) or is not one of the three formats is `undefined`;
 * the caller refuses it. Pure functions over the bytes.
 */

export type ImageFormat = 'jpeg' | 'png' | 'webp';

export interface ImageHeader {
  format: ImageFormat;
  /** The media type the Messages API is told. */
  mediaType: 'image/jpeg' | 'image/png' | 'image/webp';
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0): boolean =>
  bytes.length >= at + prefix.length && prefix.every((byte, i) => bytes[at + i] === byte);
const ascii = (bytes: Uint8Array, at: number, length: number): string => String.fromCharCode(...bytes.subarray(at, at + length));
const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);

const sized = (format: ImageFormat, width: number, height: number): ImageHeader | undefined =>
  width > 0 && height > 0 ? { format, mediaType: `image/${format}`, width, height } : undefined;

/**
 * PNG: the signature, then the IHDR chunk first (length 13), width and height as 32-bit big-endian,
 * then the chunk's CRC-32 over its type and data: a size edited after the fact no longer matches it.
 */
function png(bytes: Uint8Array): ImageHeader | undefined {
  if (bytes.length < 33 || u32be(bytes, 8) !== 13 || ascii(bytes, 12, 4) !== 'IHDR') return undefined;
  if (crc32(bytes.subarray(12, 29)) !== u32be(bytes, 29)) return undefined;
  return sized('png', u32be(bytes, 16), u32be(bytes, 20));
}

/** Start-of-frame markers SOF0–SOF15, less DHT (C4), JPG (C8) and DAC (CC), which share the range. */
const isStartOfFrame = (marker: number): boolean => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/**
 * JPEG: segments after SOI, each `FF <marker> <length>`, skipped by their length (APPn, comments,
 * tables) until a start-of-frame, whose height and width follow the precision byte. Fill bytes
 * (repeated FF) are allowed before a marker; scan data before a frame, or a segment that runs past
 * the end, is a broken header.
 */
function jpeg(bytes: Uint8Array): ImageHeader | undefined {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    let marker = bytes[at + 1]!;
    while (marker === 0xff && at + 2 < bytes.length) marker = bytes[++at + 1]!;
    if (marker === 0xd8 || marker === 0xd9 || marker === 0xda || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) return undefined;
    const length = u16be(bytes, at + 2);
    if (length < 2 || at + 2 + length > bytes.length) return undefined;
    if (isStartOfFrame(marker)) return length >= 7 ? sized('jpeg', u16be(bytes, at + 7), u16be(bytes, at + 5)) : undefined;
    at += 2 + length;
  }
  return undefined;
}

/** WebP: `RIFF <size> WEBP`, then a VP8 (lossy), VP8L (lossless) or VP8X (extended) chunk. */
function webp(bytes: Uint8Array): ImageHeader | undefined {
  if (bytes.length < 30) return undefined;
  // The RIFF size counts every byte after its own field (a padding byte aside).
  const riffSize = u32le(bytes, 4);
  if (riffSize + 8 !== bytes.length && riffSize + 9 !== bytes.length) return undefined;
  const chunk = ascii(bytes, 12, 4);
  if (chunk === 'VP8 ') {
    // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height.
    if (!startsWith(bytes, [0x9d, 0x01, 0x2a], 23)) return undefined;
    return sized('webp', u16le(bytes, 26) & 0x3fff, u16le(bytes, 28) & 0x3fff);
  }
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) return undefined;
    const bits = u32le(bytes, 21);
    return sized('webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') return sized('webp', u24le(bytes, 24) + 1, u24le(bytes, 27) + 1);
  return undefined;
}
const u32le = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

/** The format and size the header states; undefined when it is none of the three or is broken. */
export function readImageHeader(bytes: Uint8Array): ImageHeader | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return png(bytes);
  if (startsWith(bytes, [0xff, 0xd8])) return jpeg(bytes);
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return webp(bytes);
  return undefined;
}
