import { checkPdfDecompression, MAX_DECOMPRESSED_BYTES } from './decompression-guard.js';
import { checkEmbedded, type EmbeddedFailure } from './pdf-embedded.js';
import { ByteBudget, decodeChain } from './pdf-filters.js';
import { scanPdfStructure, type StreamObject, type StructureFailure } from './pdf-structure.js';

/**
 * Everything a letter PDF must pass before pdf-lib or pdf.js reads it (docs/security.md#pdf-structure),
 * cheapest first: the structural walk (linear, decodes nothing), the decompression guard (streams
 * inflate to at most 64 MiB in all), then the checks that read decoded object and xref streams and
 * walk the page tree. The walk goes first because the guard's own work grows with the number of
 * `stream` keywords, and a file made of them is refused by the walk as junk. The letter route and
 * the local AI sandbox both call this, so neither parses a file the other would refuse.
 */

export type GateFailure = Exclude<StructureFailure, 'unterminated-stream'> | EmbeddedFailure | 'too-many-streams' | 'too-complex' | 'encrypted';

export type GateResult = { ok: true } | { ok: false; reason: GateFailure };

/**
 * A stream with no end (its data runs to the end of the file) is unreadable; if it would also
 * inflate past the cap it is a bomb, and a bomb is a 413 whatever else is wrong with it. Only this
 * one stream is measured, with its direct filter names.
 */
async function measureUnterminated(stream: StreamObject, file: Buffer): Promise<GateFailure> {
  const filter = stream.dict.get('Filter')?.[0];
  const items = filter?.kind === 'array' ? filter.items : filter ? [filter] : [];
  const names = items.flatMap((item) => (item.kind === 'name' ? [item.name] : []));
  if (names.length === 0 || names.length !== items.length) return 'unreadable';
  const result = await decodeChain(names, [], file.subarray(stream.start, stream.end), new ByteBudget(MAX_DECOMPRESSED_BYTES), false);
  return result.kind === 'over' ? 'too-much-data' : 'unreadable';
}

export async function checkPdfBeforeParsing(bytes: Uint8Array, maxPages: number): Promise<GateResult> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const structure = scanPdfStructure(buffer.toString('latin1'));
  if (!structure.ok) {
    if (structure.reason !== 'unterminated-stream') return { ok: false, reason: structure.reason };
    return { ok: false, reason: structure.stream ? await measureUnterminated(structure.stream, buffer) : 'unreadable' };
  }
  const inflation = await checkPdfDecompression(bytes);
  if (!inflation.ok) return { ok: false, reason: inflation.reason };
  // Encrypted: refused anyway, and its object streams are ciphertext no check can read (nor skip:
  // a plain object stream behind a fake /Encrypt would reach pdf-lib unchecked).
  if (structure.structure.trailers.some((trailer) => trailer.has('Encrypt'))) return { ok: false, reason: 'encrypted' };
  return checkEmbedded(structure.structure, buffer, maxPages);
}
