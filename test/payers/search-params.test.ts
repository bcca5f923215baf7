import { describe, expect, it } from '@jest/globals';
import { readPayerSearch } from '../../lib/payers/search-params.js';

/** `pageSize` when none is given (docs/api.md#payer-directory: 1–100, default 20). */
const DEFAULT_PAGE_SIZE = 20;

describe('payer search parameters', () => {
  it('reads query-string text and MCP JSON alike, with the default page size', () => {
    expect(readPayerSearch({ q: ' Aetna ', transaction: 'cob', pageSize: '5', pageToken: 't' })).toEqual({
      ok: true,
      value: { q: 'Aetna', transaction: 'cob', pageSize: 5, pageToken: 't' },
    });
    expect(readPayerSearch({ pageSize: 7 })).toEqual({ ok: true, value: { pageSize: 7 } });
    expect(readPayerSearch({})).toEqual({ ok: true, value: { pageSize: DEFAULT_PAGE_SIZE } });
  });

  it('lists every problem in one 400 INVALID_REQUEST, in plain words', () => {
    const answer = readPayerSearch({ q: 'x'.repeat(101), transaction: 'claims', pageSize: '0', pageToken: 'a\u0000', sort: 'name' });
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
    expect(answer.error.errors).toEqual([
      { field: 'sort', message: 'is not an allowed field' },
      { field: 'q', message: 'must be at most 100 characters long (spaces count)' },
      { field: 'pageToken', message: 'must not contain control characters (such as tabs, line breaks or NUL)' },
      { field: 'transaction', message: 'must be eligibility or cob' },
      { field: 'pageSize', message: 'must be a whole number from 1 to 100' },
    ]);
    expect(readPayerSearch({ pageSize: '2.5' }).ok).toBe(false);
    expect(readPayerSearch({ pageSize: 101 }).ok).toBe(false);
  });
});
