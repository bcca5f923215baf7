import { fail, ok, type Result, serviceError } from '../errors/index.js';
import { bodyText, eventParameters, headerOf, type HttpEvent, isJsonContentType, readJsonBody } from '../http/index.js';
import { itemsFromCsv } from './csv-input.js';
import { DEFAULT_BATCH_SETTINGS } from './types.js';

/**
 * The submit route's body (docs/batch.md#submit): strict JSON (`{items, name?, callbackUrl?}`), or
 * `text/csv` rows with `name` and `callbackUrl` as query parameters. Either way the same envelope
 * goes on, so an Idempotency-Key compares what was asked, not how it was spelled.
 */

const CSV_TYPE = /^text\/csv\s*(;.*)?$/i;

type BatchEvent = HttpEvent & { queryStringParameters?: Record<string, string | undefined> | null };

export function readBatchBody(event: BatchEvent): Result<unknown> {
  if (isJsonContentType(event.headers)) return readJsonBody(event);
  if (!CSV_TYPE.test(headerOf(event.headers, 'content-type') ?? '')) {
    return fail(serviceError('UNSUPPORTED_MEDIA_TYPE', { message: 'Content-Type must be application/json or text/csv' }));
  }
  const text = bodyText(event);
  if (text === undefined) {
    return fail(serviceError('INVALID_REQUEST', { message: 'The body is not valid UTF-8', errors: [{ field: '(body)', message: 'must be UTF-8 text' }] }));
  }
  const items = itemsFromCsv(text, DEFAULT_BATCH_SETTINGS.maxItems);
  if (!items.ok) return items;
  const { query } = eventParameters(event);
  return ok({
    items: items.value,
    ...(query.name === undefined ? {} : { name: query.name }),
    ...(query.callbackUrl === undefined ? {} : { callbackUrl: query.callbackUrl }),
  });
}
