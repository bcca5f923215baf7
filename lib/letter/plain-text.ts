/**
 * Text that goes into the letter's markdown as text and nothing else (docs/letter.md#markup).
 *
 * `defuseSchemes` keeps `javascript:`, `vbscript:` and `data:` out of the letter: a URL with such a
 * scheme is removed whole (it is no content a payer reads), and the word followed by a colon in prose
 * ("lab data: …") keeps its words with a dash instead of the colon.
 *
 * `escapeMarkdown` escapes only what markdown would read as structure: emphasis and code marks,
 * brackets, entity-like ampersands, `<` (written as `&lt;` so the letter never holds a `<`), and at
 * the start of a line a heading, quote, list or rule marker. A phone `+1 555 0100` stays as typed.
 */

const SCHEME_URL = /(?:javascript|vbscript|data)\s*:[^\s<>"'`]+/gi;
const SCHEME_WORD = /(javascript|vbscript|data)(\s*):/gi;

export function defuseSchemes(text: string): string {
  return text.replace(SCHEME_URL, '').replace(SCHEME_WORD, '$1$2 –');
}

const INLINE: Record<string, string> = {
  '\\': '\\\\',
  '`': '\\`',
  '*': '\\*',
  '[': '\\[',
  ']': '\\]',
  '~': '\\~',
  '<': '&lt;',
};

/** Escapes inline structure anywhere in `text` (no line-start rules; see escapeLineStart). */
export function escapeInline(text: string): string {
  return text
    .replace(/&(?=#?[A-Za-z0-9]+;)/g, '&amp;')
    .replace(/[\\`*[\]~<]/g, (char) => INLINE[char]!)
    // An underscore is emphasis only at a word's edge: snake_case stays as typed.
    .replace(/(^|[^\p{L}\p{N}])_|_(?=[^\p{L}\p{N}]|$)/gu, (match) => match.replace('_', '\\_'));
}

/** Escapes what would start a block when `text` begins a line: #, >, -/+/* lists, 1. / 1), = or - underlines. */
export function escapeLineStart(text: string): string {
  return text
    .replace(/^(\s*)([#>])/, '$1\\$2')
    .replace(/^(\s*)([-+])(?=\s|$)/, '$1\\$2')
    .replace(/^(\s*\d{1,9})([.)])(?=\s|$)/, '$1\\$2')
    .replace(/^(\s*)(=+\s*)$/, '$1\\$2');
}

/** A request value on its own: one line, defused, escaped where markdown needs it. */
export function escapeMarkdown(value: string, atLineStart = false): string {
  const escaped = escapeInline(defuseSchemes(value).replace(/\s+/g, ' ').trim());
  return atLineStart ? escapeLineStart(escaped) : escaped;
}
