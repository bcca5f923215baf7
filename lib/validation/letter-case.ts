/**
 * Codes whose letter case carries no meaning: X12 service type codes (`mh` is `MH`) and procedure
 * codes (`d0120` is `D0120`). Items of these list fields are upper-cased before validation, so the
 * schemas (and openapi.json) hold the canonical form and the 270 always carries it
 * (docs/api.md#validation).
 */

/** The request fields whose items are upper-cased, with the note the OpenAPI document gives them. */
export const UPPER_CASED_LISTS: Readonly<Record<string, string>> = {
  serviceTypeCodes: 'Letter case is ignored: codes are upper-cased before they are checked (`mh` is `MH`).',
  procedureCodes: 'Letter case is ignored: codes are upper-cased before they are checked (`d0120` is `D0120`).',
};

/** The body with the string items of those lists upper-cased; anything else untouched (the validator judges it). */
export function upperCaseCodes(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  let changed: Record<string, unknown> | undefined;
  for (const field of Object.keys(UPPER_CASED_LISTS)) {
    const list = Object.hasOwn(record, field) ? record[field] : undefined;
    if (!Array.isArray(list) || !list.some((item) => typeof item === 'string' && item !== item.toUpperCase())) continue;
    changed ??= { ...record };
    changed[field] = list.map((item) => (typeof item === 'string' ? item.toUpperCase() : item));
  }
  return changed ?? body;
}
