import { describe, expect, it } from '@jest/globals';
import { itemsFromCsv } from '../../lib/batch/csv-input.js';
import { readBatchBody } from '../../lib/batch/request-body.js';
import { readEnvelope } from '../../lib/batch/submission.js';
import { DEFAULT_BATCH_SETTINGS } from '../../lib/batch/types.js';

/** A CSV batch is read only as far as a batch may go: the row after the 10,000th ends the parse. */

const HEADER = 'clientRef,patientFirstName';
const rows = (n: number) => Array.from({ length: n }, (_, i) => `r${i},Ann`);

describe('a CSV batch past 10,000 rows', () => {
  it('stops parsing at its 10,001st row: a broken row after it is never read', async () => {
    // Row 10,002 does not fit the header: a parser that read everything would refuse the CSV for it.
    const text = [HEADER, ...rows(10_001), 'one,two,three,four', ...rows(5)].join('\n');
    const items = itemsFromCsv(text, DEFAULT_BATCH_SETTINGS.maxItems);
    expect(items.ok).toBe(true);
    if (!items.ok) return;
    expect(items.value).toHaveLength(10_001);
    expect(items.value[10_000]).toEqual({ clientRef: 'r10000', patientFirstName: 'Ann' });
  });

  it('is refused for its count, as a JSON batch of the same size is', () => {
    const text = [HEADER, ...rows(12_000)].join('\r\n');
    const body = readBatchBody({ body: text, headers: { 'content-type': 'text/csv' } } as never);
    expect(body.ok).toBe(true);
    if (!body.ok) return;
    expect((body.value as { items: unknown[] }).items).toHaveLength(10_001);
    expect(readEnvelope(body.value as Record<string, unknown>, DEFAULT_BATCH_SETTINGS, { allowLoopbackHttp: false })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_REQUEST', errors: [{ field: 'items' }] },
    });
  });

  it('reads a batch of exactly 10,000 rows whole', () => {
    const items = itemsFromCsv([HEADER, ...rows(10_000)].join('\n'), DEFAULT_BATCH_SETTINGS.maxItems);
    expect(items.ok && items.value.length).toBe(10_000);
  });
});
