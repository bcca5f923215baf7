/**
 * A strict JSON parser for request bodies (docs/security.md#strict-json).
 *
 * JSON.parse keeps the last of two equal keys and cannot tell a reviver about the first one, so a
 * body such as `{"mockRequest": true, "mockRequest": false}` would be read silently one way here and
 * perhaps another way by a proxy in front. This parser reads RFC 8259 JSON and refuses:
 * - a key repeated in one object (compared after escapes are decoded, so "a" and "\u0061" are equal);
 * - a lone UTF-16 surrogate, raw or written as an escape (not a Unicode character);
 * - nesting deeper than MAX_DEPTH (no request body here nests more than two levels).
 * `__proto__` is kept as an ordinary own property, so it can neither change an object's prototype
 * nor hide from schema validation. The parser is iterative over strings and numbers and recursive
 * only per nesting level, which MAX_DEPTH bounds.
 */

const MAX_DEPTH = 32;

export type StrictJson = { ok: true; value: unknown } | { ok: false; problem: string };

class JsonSyntax extends Error {}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const ESCAPES: Record<number, string> = { 34: '"', 92: '\\', 47: '/', 98: '\b', 102: '\f', 110: '\n', 114: '\r', 116: '\t' };
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Shortens a caller's key for a message (it is echoed to the caller only, never logged). */
const quote = (key: string): string => JSON.stringify(key.length > 60 ? `${key.slice(0, 60)}…` : key);

export function parseStrictJson(text: string): StrictJson {
  if (LONE_SURROGATE.test(text)) return { ok: false, problem: 'contains a lone UTF-16 surrogate, which is not a character' };
  let pos = 0;

  const fail = (what: string): never => {
    throw new JsonSyntax(pos >= text.length ? `ends early (${what})` : `has ${what} at character ${pos + 1}`);
  };

  const skipWhitespace = () => {
    while (pos < text.length && WHITESPACE.has(text.charCodeAt(pos))) pos++;
  };

  /** Reads a string; the raw text was checked for lone surrogates, so only escapes can make one. */
  const readString = (): string => {
    // pos is on the opening quote.
    pos++;
    let out = '';
    let chunkStart = pos;
    let escaped = false;
    for (;;) {
      if (pos >= text.length) fail('an unterminated string');
      const code = text.charCodeAt(pos);
      if (code === 0x22) {
        out += text.slice(chunkStart, pos);
        pos++;
        if (escaped && LONE_SURROGATE.test(out)) fail('an escaped lone UTF-16 surrogate');
        return out;
      }
      if (code < 0x20) fail('a raw control character inside a string');
      if (code !== 0x5c) {
        pos++;
        continue;
      }
      out += text.slice(chunkStart, pos);
      escaped = true;
      const escapeCode = text.charCodeAt(pos + 1);
      if (escapeCode === 0x75) {
        const hex = text.slice(pos + 2, pos + 6);
        if (!/^[0-9A-Fa-f]{4}$/.test(hex)) fail('a broken \\u escape');
        out += String.fromCharCode(Number.parseInt(hex, 16));
        pos += 6;
      } else if (ESCAPES[escapeCode] !== undefined) {
        out += ESCAPES[escapeCode];
        pos += 2;
      } else {
        fail('an unknown escape');
      }
      chunkStart = pos;
    }
  };

  const readValue = (depth: number): unknown => {
    skipWhitespace();
    const code = text.charCodeAt(pos);
    if (code === 0x7b) return readObject(depth + 1);
    if (code === 0x5b) return readArray(depth + 1);
    if (code === 0x22) return readString();
    if (text.startsWith('true', pos)) {
      pos += 4;
      return true;
    }
    if (text.startsWith('false', pos)) {
      pos += 5;
      return false;
    }
    if (text.startsWith('null', pos)) {
      pos += 4;
      return null;
    }
    NUMBER.lastIndex = pos;
    const number = NUMBER.exec(text);
    if (!number) return fail('an unexpected character');
    pos += number[0].length;
    return Number(number[0]);
  };

  const readObject = (depth: number): Record<string, unknown> => {
    if (depth > MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`);
    pos++;
    const object: Record<string, unknown> = {};
    skipWhitespace();
    if (text.charCodeAt(pos) === 0x7d) {
      pos++;
      return object;
    }
    for (;;) {
      skipWhitespace();
      if (text.charCodeAt(pos) !== 0x22) fail('something other than a quoted key');
      const key = readString();
      if (Object.hasOwn(object, key)) throw new JsonSyntax(`repeats the key ${quote(key)} in one object`);
      skipWhitespace();
      if (text.charCodeAt(pos) !== 0x3a) fail('a missing colon');
      pos++;
      const value = readValue(depth);
      // defineProperty: an own "__proto__" stays data instead of replacing the prototype.
      if (key === '__proto__') Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      else object[key] = value;
      skipWhitespace();
      const next = text.charCodeAt(pos);
      if (next !== 0x7d && next !== 0x2c) fail('a missing comma or closing brace');
      pos++;
      if (next === 0x7d) return object;
    }
  };

  const readArray = (depth: number): unknown[] => {
    if (depth > MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`);
    pos++;
    const array: unknown[] = [];
    skipWhitespace();
    if (text.charCodeAt(pos) === 0x5d) {
      pos++;
      return array;
    }
    for (;;) {
      array.push(readValue(depth));
      skipWhitespace();
      const next = text.charCodeAt(pos);
      if (next !== 0x5d && next !== 0x2c) fail('a missing comma or closing bracket');
      pos++;
      if (next === 0x5d) return array;
    }
  };

  try {
    const value = readValue(0);
    skipWhitespace();
    if (pos < text.length) fail('extra text after the JSON value');
    return { ok: true, value };
  } catch (error) {
    if (error instanceof JsonSyntax) return { ok: false, problem: error.message };
    throw error;
  }
}
