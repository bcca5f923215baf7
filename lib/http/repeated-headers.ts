import { serviceError, type ServiceError } from '../errors/index.js';

/**
 * Headers that must arrive once (docs/security.md#headers): a second `Authorization`,
 * `Idempotency-Key` or `X-Request-Id`, in any letter case, is a 400 rather than a guess at which
 * copy counts (one copy could pick the cached authorizer answer and another the decision). API
 * Gateway REST proxy events list every copy in `multiValueHeaders`, names in the client's casing,
 * so `Authorization` and `authorization` may be two keys; the local server builds the same map.
 */

const SINGLE_HEADERS = ['Authorization', 'Idempotency-Key', 'X-Request-Id'] as const;
export type SingleHeader = (typeof SINGLE_HEADERS)[number];

export type MultiValueHeaders = Record<string, readonly (string | undefined)[] | undefined> | null | undefined;

export interface RepeatedHeader {
  header: SingleHeader;
  /** 400 INVALID_REQUEST whose message names the header, never the body. */
  error: ServiceError;
}

/** The first of `names` (in that order) sent more than once, whatever the casing, or undefined. */
export function repeatedHeader(multiValueHeaders: MultiValueHeaders, names: readonly SingleHeader[] = SINGLE_HEADERS): RepeatedHeader | undefined {
  const counts = new Map<string, number>();
  for (const [name, values] of Object.entries(multiValueHeaders ?? {})) {
    const key = name.toLowerCase();
    counts.set(key, (counts.get(key) ?? 0) + (values ?? []).filter((value) => value !== undefined).length);
  }
  const header = names.find((name) => (counts.get(name.toLowerCase()) ?? 0) > 1);
  if (!header) return undefined;
  const message = `The ${header} header is sent more than once; send it once`;
  return { header, error: serviceError('INVALID_REQUEST', { message, errors: [{ field: header, message: 'must be sent once' }] }) };
}
