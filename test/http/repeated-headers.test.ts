import { describe, expect, it } from '@jest/globals';
import { repeatedHeader } from '../../lib/http/repeated-headers.js';

/** A repeated Authorization, Idempotency-Key or X-Request-Id, in any casing, is named (docs/security.md#headers). */

describe('repeatedHeader', () => {
  it('finds nothing when each guarded header comes once, other headers may repeat', () => {
    expect(repeatedHeader({ Authorization: ['Bearer a'], 'Idempotency-Key': ['k'], 'X-Request-Id': ['r'], Accept: ['a', 'b'] })).toBeUndefined();
    expect(repeatedHeader(null)).toBeUndefined();
    expect(repeatedHeader(undefined)).toBeUndefined();
  });

  it('counts copies across letter cases (REST events keep the casing, so they are separate keys)', () => {
    expect(repeatedHeader({ Authorization: ['Bearer a'], authorization: ['Bearer b'] })?.header).toBe('Authorization');
    expect(repeatedHeader({ 'IDEMPOTENCY-KEY': ['k1', 'k2'] })?.header).toBe('Idempotency-Key');
    expect(repeatedHeader({ 'x-request-id': ['a'], 'X-Request-ID': ['b'] })?.header).toBe('X-Request-Id');
  });

  it('names the header in a 400 INVALID_REQUEST, not the body', () => {
    const found = repeatedHeader({ 'Idempotency-Key': ['k1', 'k1'] });
    expect(found?.error).toEqual({
      code: 'INVALID_REQUEST',
      status: 400,
      message: 'The Idempotency-Key header is sent more than once; send it once',
      errors: [{ field: 'Idempotency-Key', message: 'must be sent once' }],
    });
    expect(found?.error.message).not.toMatch(/body/i);
  });

  it('reports the first repeated header in the order asked, and only the names asked', () => {
    const both = { 'x-request-id': ['a', 'b'], authorization: ['c', 'd'] };
    expect(repeatedHeader(both)?.header).toBe('Authorization');
    expect(repeatedHeader(both, ['X-Request-Id'])?.header).toBe('X-Request-Id');
    expect(repeatedHeader({ 'x-request-id': ['a', 'b'] }, ['Authorization'])).toBeUndefined();
  });
});
