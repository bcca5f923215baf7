import { describe, expect, it } from '@jest/globals';
import { eventParameters } from '../../lib/http/parameters.js';

/** The query-string and path parameters the authenticated GET routes read from a REST proxy event. */

describe('eventParameters', () => {
  it('keeps the parameters that have a value, and drops the ones the gateway left unset', () => {
    expect(
      eventParameters({ queryStringParameters: { q: 'aetna', pageSize: '5', pageToken: undefined }, pathParameters: { payerId: '60054', other: undefined } }),
    ).toEqual({ query: { q: 'aetna', pageSize: '5' }, path: { payerId: '60054' } });
  });

  it('reads null or missing maps (no query string, no path parameter) as empty', () => {
    expect(eventParameters({ queryStringParameters: null, pathParameters: null })).toEqual({ query: {}, path: {} });
    expect(eventParameters({})).toEqual({ query: {}, path: {} });
  });
});
