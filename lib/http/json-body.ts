import { fail, ok, serviceError, type Result } from '../errors/index.js';
import { headerOf, type HeaderMap } from './headers.js';
import { parseStrictJson } from './strict-json.js';

/**
 * Reads a request body as a JSON object (docs/security.md#strict-json): Content-Type must be JSON
 * (415), the bytes must be valid UTF-8 and the text strict JSON holding an object (400 INVALID_JSON).
 *
 * A body API Gateway (or the local server) passes base64-encoded is decoded and checked byte by
 * byte, so overlong forms, surrogates encoded in UTF-8 and stray continuation bytes are refused
 * instead of turning into U+FFFD. A body passed as text was already decoded by whoever passed it;
 * a U+FFFD in it is the trace of bytes that were not UTF-8, and is refused the same way.
 */

const JSON_CONTENT_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;.*)?$/i;
const REPLACEMENT_CHARACTER = '\uFFFD';

export interface BodySource {
  headers?: HeaderMap;
  body?: string | null;
  isBase64Encoded?: boolean;
}

const invalidJson = (message: string) => fail<Record<string, unknown>>(serviceError('INVALID_JSON', { message }));

/** The Content-Type is JSON (`application/json`, or any `+json` type). */
export const isJsonContentType = (headers: HeaderMap): boolean => JSON_CONTENT_TYPE.test(headerOf(headers, 'content-type') ?? '');

/** The body as text, checked as UTF-8 as described above; undefined when it is not UTF-8. */
export function bodyText(source: BodySource): string | undefined {
  let text: string;
  try {
    text = source.isBase64Encoded ? new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(source.body ?? '', 'base64')) : (source.body ?? '');
  } catch {
    return undefined;
  }
  return text.includes(REPLACEMENT_CHARACTER) ? undefined : text;
}

export function readJsonBody(source: BodySource): Result<Record<string, unknown>> {
  if (!isJsonContentType(source.headers)) return fail(serviceError('UNSUPPORTED_MEDIA_TYPE'));
  const text = bodyText(source);
  if (text === undefined) return invalidJson('The body is not valid UTF-8');
  if (text.trim() === '') return invalidJson('The body is empty; send a JSON object');
  const parsed = parseStrictJson(text);
  if (!parsed.ok) return invalidJson(`The body is not valid JSON: it ${parsed.problem}`);
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return invalidJson('The body must be a JSON object');
  return ok(value as Record<string, unknown>);
}
