/**
 * The query-string and path parameters of a REST proxy event (docs/runtime.md#events), without the
 * ones the gateway left unset: `query` holds the last value of a repeated parameter, as API Gateway's
 * `queryStringParameters` does. The authenticated GET routes (payer directory, batch status and items)
 * read their input from these.
 */

type ParameterMap = Record<string, string | undefined> | null | undefined;

export interface EventParameters {
  query: Record<string, string>;
  path: Record<string, string>;
}

const defined = (map: ParameterMap): Record<string, string> =>
  Object.fromEntries(Object.entries(map ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));

export function eventParameters(event: { queryStringParameters?: ParameterMap; pathParameters?: ParameterMap }): EventParameters {
  return { query: defined(event.queryStringParameters), path: defined(event.pathParameters) };
}
