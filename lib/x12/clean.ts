/**
 * The one cleaning every caller-supplied value goes through before it reaches Stedi, in the X12 270
 * (lib/x12/build270.ts) and in the COB request (lib/cob/request.ts) alike (docs/security.md#strings):
 * X12 delimiters (`*` element, `^` repetition, `:` component, `~` segment) and control characters
 * become spaces, runs of whitespace collapse to one space, and the ends are trimmed. The request
 * schemas refuse a value this would leave empty (lib/validation/schemas.ts NAME_OR_ID: a letter or
 * digit is never removed), so a required element is never sent blank.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are removed from X12 elements on purpose, so the pattern must match them
const DIRTY = /[*^:~\u0000-\u001F\u007F]/g;

export function cleanElement(value: string): string {
  return value.replace(DIRTY, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * A patient's name as the 270's NM1 carries it: cleaned, then upper-cased. Upper-casing can lengthen
 * a name (`ß` → `SS`, `ﬃ` → `FFI`), so the request validation measures this form against the 5010
 * element sizes below and refuses a name that would not fit (docs/security.md#strings).
 */
export const x12Name = (value: string): string => cleanElement(value).toUpperCase();

/** 005010 maximum sizes of NM103 (last or organization name) and NM104 (first name), in characters. */
export const NM1_NAME_SIZES = { NM103: 60, NM104: 35 } as const;
