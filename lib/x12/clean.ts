/**
 * The one cleaning every caller-supplied value goes through before it reaches Stedi, in the X12 270
 * (lib/x12/build270.ts) and in the COB request (lib/cob/request.ts) alike (docs/security.md#strings):
 * X12 delimiters (`*` element, `^` repetition, `:` component, `~` segment) and control characters
 * become spaces, runs of whitespace collapse to one space, and the ends are trimmed. The request
 * schemas refuse a value this would leave empty (lib/validation/schemas.ts X12_VALUE), so a
 * required element is never sent blank.
 */

const DIRTY = /[*^:~\u0000-\u001F\u007F]/g;

export function cleanElement(value: string): string {
  return value.replace(DIRTY, ' ').replace(/\s+/g, ' ').trim();
}
