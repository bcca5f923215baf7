import { fail, ok, serviceError, type Result } from '../errors/index.js';
import type { CardRequest } from '../validation/index.js';
import { readImageHeader } from './image-header.js';
import type { CardImage } from './model.js';

/**
 * The card's images checked before anything reads them (docs/finding-coverage.md#images): each at most
 * MAX_IMAGE_BYTES decoded (judged on the base64's length before decoding), base64 of a JPEG, PNG or
 * WebP whose header is whole and honest, and at most MAX_IMAGE_SIDE pixels a side as that header says.
 */

/** 2 MiB decoded: front and back together fit a 6 MB request. */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
/** The longest side the header may name; photos should be downscaled to about 1,600 px. */
export const MAX_IMAGE_SIDE = 8_000;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function checkImage(side: CardImage['side'], value: string): Result<CardImage> {
  const base64 = value.replace(/[\r\n]/g, '');
  if (Math.floor((base64.length * 3) / 4) - (base64.match(/=+$/)?.[0].length ?? 0) > MAX_IMAGE_BYTES) {
    return fail(serviceError('PAYLOAD_TOO_LARGE', { message: `The ${side} image is over 2 MiB; downscale it to about 1,600 pixels on the long edge` }));
  }
  if (base64.length % 4 !== 0 || !BASE64.test(base64)) {
    return fail(serviceError('INVALID_FILE', { message: `${side} is not base64 text` }));
  }
  const header = readImageHeader(Buffer.from(base64, 'base64'));
  if (!header) {
    return fail(serviceError('INVALID_FILE', { message: `${side} is not a whole JPEG, PNG or WebP image (its header is missing, cut short or inconsistent)` }));
  }
  if (header.width > MAX_IMAGE_SIDE || header.height > MAX_IMAGE_SIDE) {
    return fail(
      serviceError('PAYLOAD_TOO_LARGE', {
        message: `The ${side} image is ${header.width} × ${header.height} pixels; at most ${MAX_IMAGE_SIDE.toLocaleString('en-US')} a side (downscale it to about 1,600 pixels on the long edge)`,
      }),
    );
  }
  return ok({ side, header, base64 });
}

/** Front, then back when given; the first problem found is the answer. */
export function checkImages(body: CardRequest): Result<CardImage[]> {
  const images: CardImage[] = [];
  for (const [side, value] of [
    ['front', body.front],
    ['back', body.back],
  ] as const) {
    if (value === undefined) continue;
    const image = checkImage(side, value);
    if (!image.ok) return image;
    images.push(image.value);
  }
  return ok(images);
}
