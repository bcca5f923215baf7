/**
 * Request headers as API Gateway REST proxy events carry them: in the client's own casing
 * (`Content-Type`, `content-type`, `CONTENT-TYPE` are all possible), repeated headers joined.
 * The pipeline lower-cases them once, so everything after it looks names up in lower case; code
 * that runs before it uses `headerOf`.
 */

export type HeaderMap = Record<string, string | undefined> | null | undefined;

/** A copy with lower-cased names; a name sent twice in different casings keeps both values, comma-joined. */
export function lowerCaseHeaders(headers: HeaderMap): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined || value === null) continue;
    const key = name.toLowerCase();
    out[key] = key in out ? `${out[key]},${value}` : value;
  }
  return out;
}

/** A header's value whatever the case of its name (REST API events keep the caller's case). */
export function headerOf(headers: HeaderMap, name: string): string | undefined {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted && typeof value === 'string') return value;
  }
  return undefined;
}
