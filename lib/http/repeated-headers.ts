/**
 * Headers whose value decides who the caller is, which stored answer to replay or what the request
 * is called in the logs: each may be sent once (docs/api.md#request-ids). Keys are lower case; values
 * are the names as the client should read them in an error.
 */
const SINGLE_HEADERS: Record<string, string> = {
  authorization: 'Authorization',
  'idempotency-key': 'Idempotency-Key',
  'x-request-id': 'X-Request-Id',
};

/**
 * The first of those headers an API Gateway event carries more than once, counting every letter
 * case of its name together (`multiValueHeaders` keeps each casing apart); undefined when none is.
 */
export function firstRepeatedHeader(multiValueHeaders: Record<string, string[] | undefined> | null | undefined): string | undefined {
  const seen = new Map<string, number>();
  for (const [name, values] of Object.entries(multiValueHeaders ?? {})) {
    const key = name.toLowerCase();
    const display = SINGLE_HEADERS[key];
    if (display === undefined || !Array.isArray(values)) continue;
    const count = (seen.get(key) ?? 0) + values.length;
    if (count > 1) return display;
    seen.set(key, count);
  }
  return undefined;
}
