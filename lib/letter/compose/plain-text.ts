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

/**
 * Links in any form become plain text a renderer will not turn back into a link
 * (docs/letter.md#markup): a scheme with `//` (https://, ftp://) or a mail/phone scheme is removed,
 * and so is a leading `www.`, which GitHub-flavoured renderers link on its own. What is left
 * ("evil.example/path") is text. Angle-bracket autolinks reach this as their text (the markdown
 * reader drops the brackets), and `<` is escaped in the letter anyway.
 */
const LINK_SCHEME = /\b[a-z][a-z0-9+.-]{1,30}:\/\/+/gi;
const MAIL_SCHEME = /\b(?:mailto|tel|sms|callto|file):/gi;
const WWW = /(?<![\p{L}\p{N}._-])www\d{0,3}\.(?=[\p{L}\p{N}])/giu;

export function defuseLinks(text: string): string {
  return text.replace(LINK_SCHEME, '').replace(MAIL_SCHEME, '').replace(WWW, '');
}

/**
 * The model's text without what no letter holds: terminal escape sequences (CSI and OSC, whole),
 * other control characters (C0 but tab and line breaks, DEL, C1), and direction overrides and
 * isolates (U+202A–U+202E, U+2066–U+2069), which could reorder the words around them; the PDF
 * isolates right-to-left values itself (docs/letter.md#fonts).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's job.
const TERMINAL_ESCAPES = /\u001B\[[0-?]*[ -/]*[@-~]|\u001B\][^\u0007\u001B]*(?:\u0007|\u001B\\)?|\u009B[0-?]*[ -/]*[@-~]|\u001B[@-_]?/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's job.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

export function cleanModelText(text: string): string {
  return text.replace(TERMINAL_ESCAPES, '').replace(/\r\n?/g, '\n').replace(CONTROL, '');
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
  return (
    text
      .replace(/&(?=#?[A-Za-z0-9]+;)/g, '&amp;')
      .replace(/[\\`*[\]~<]/g, (char) => INLINE[char]!)
      // An underscore is emphasis only at a word's edge: snake_case stays as typed.
      .replace(/(^|[^\p{L}\p{N}])_|_(?=[^\p{L}\p{N}]|$)/gu, (match) => match.replace('_', '\\_'))
  );
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
