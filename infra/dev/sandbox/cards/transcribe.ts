import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SAMPLE_SIDES, type SampleSide } from './samples.js';

/**
 * The sandbox Messages API's card reader (docs/finding-coverage.md#sample-cards): it knows the committed
 * sample images (./samples.ts) by the SHA-256 of their bytes and answers a forced tool call with
 * their transcription, deterministically; every field it gives is `high` confidence. Any other image,
 * or a request mixing a sample with another image, is answered `{isInsuranceCard: false}`, which the
 * service turns into 422 CARD_NOT_READ.
 */

const HERE = fileURLToPath(new URL('.', import.meta.url));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let known: Map<string, SampleSide> | undefined;
/** The sample sides by the SHA-256 of their committed files (read once). */
function samplesByHash(): Map<string, SampleSide> {
  known ??= new Map(SAMPLE_SIDES.map((side) => [sha256(readFileSync(`${HERE}${side.file}`)), side]));
  return known;
}

/** The tool input for these images (base64, as the request's image blocks carry them). */
export function transcribeCards(images: string[]): Record<string, unknown> {
  const sides = images.map((data) => samplesByHash().get(sha256(Buffer.from(data, 'base64'))));
  if (sides.length === 0 || sides.some((side) => side === undefined)) return { isInsuranceCard: false };
  const fields = Object.assign({}, ...sides.map((side) => side!.fields)) as Record<string, unknown>;
  const confidence = Object.fromEntries(Object.keys(fields).map((field) => [field, 'high']));
  return { isInsuranceCard: true, ...fields, confidence };
}

/** A Messages request's image blocks (base64 data), in order. */
export function imagesOf(messages: Array<{ content?: unknown }>): string[] {
  return messages.flatMap((message) =>
    Array.isArray(message.content)
      ? message.content.flatMap((block: { type?: string; source?: { type?: string; data?: unknown } }) =>
          block?.type === 'image' && block.source?.type === 'base64' && typeof block.source.data === 'string' ? [block.source.data] : [],
        )
      : [],
  );
}
