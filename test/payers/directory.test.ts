import { describe, expect, it } from '@jest/globals';
import { fail, ok, serviceError } from '../../lib/errors/index.js';
import { payerDirectory, type PayerDirectoryOptions } from '../../lib/payers/directory.js';
import type { StediPayerPage, StediPayerRecord, StediPayerSearch } from '../../lib/upstream/stedi-payers.js';

/** The per-container directory: one hour of cache on an injected clock, failures never kept. */

type SearchUpstream = PayerDirectoryOptions['search'];
/** How long an answer is kept: one hour (docs/api.md#payer-directory). */
const CACHE_TTL_MS = 60 * 60 * 1000;

const AETNA: StediPayerRecord = {
  stediId: 'AETNA1',
  displayName: 'Aetna',
  primaryPayerId: '60054',
  aliases: ['60054', 'AETNA'],
  coverageTypes: ['medical', 'dental'],
  operatingStates: [],
  transactionSupport: { eligibilityCheck: 'SUPPORTED', coordinationOfBenefits: 'NOT_SUPPORTED' },
};

function counted(answer: () => ReturnType<SearchUpstream>) {
  const calls: StediPayerSearch[] = [];
  const search: SearchUpstream = (query) => {
    calls.push(query);
    return answer();
  };
  return { calls, search };
}

const page = (items: StediPayerPage['items'], nextPageToken?: string) => async () => ok<StediPayerPage>(nextPageToken ? { items, nextPageToken } : { items });

describe('payer directory', () => {
  it('maps Stedi records to the API shape, keys in order, and passes the filter upstream', async () => {
    const { calls, search } = counted(page([AETNA], 'next-1'));
    const directory = payerDirectory({ search, clock: { now: () => 0 } });
    const answer = await directory.search({ q: 'aetna', transaction: 'cob', pageSize: 5, pageToken: 'abc' });
    expect(calls).toEqual([{ query: 'aetna', coordinationOfBenefits: 'SUPPORTED', pageSize: 5, pageToken: 'abc' }]);
    expect(answer.ok && answer.value).toEqual({
      payers: [
        {
          payerId: '60054',
          name: 'Aetna',
          aliases: ['60054', 'AETNA'],
          stediId: 'AETNA1',
          coverageTypes: ['medical', 'dental'],
          states: [],
          transactions: { eligibility: 'SUPPORTED', cob: 'NOT_SUPPORTED' },
        },
      ],
      nextPageToken: 'next-1',
    });
    if (!answer.ok) throw new Error('search failed');
    expect(Object.keys(answer.value.payers[0]!)).toEqual(['payerId', 'name', 'aliases', 'stediId', 'coverageTypes', 'states', 'transactions']);
  });

  it('answers the same search from its cache for an hour, then asks again', async () => {
    let now = 1_000;
    const { calls, search } = counted(page([{ displayName: 'Aetna', primaryPayerId: '60054', aliases: [] }]));
    const directory = payerDirectory({ search, clock: { now: () => now } });
    await directory.search({ q: 'aetna', pageSize: 20 });
    now += CACHE_TTL_MS - 1;
    await directory.search({ q: 'aetna', pageSize: 20 });
    expect(calls).toHaveLength(1);
    await directory.search({ q: 'aetna', pageSize: 10 });
    expect(calls).toHaveLength(2);
    now += 1;
    await directory.search({ q: 'aetna', pageSize: 20 });
    expect(calls).toHaveLength(3);
  });

  it('never keeps a failure: the next request asks the upstream again', async () => {
    const { calls, search } = counted(async () => fail(serviceError('PAYER_UNAVAILABLE')));
    const directory = payerDirectory({ search, clock: { now: () => 0 } });
    const first = await directory.search({ pageSize: 20 });
    await directory.search({ pageSize: 20 });
    expect(first.ok === false && first.error.code).toBe('PAYER_UNAVAILABLE');
    expect(calls).toHaveLength(2);
  });

  it('is bounded: the oldest search is dropped when the cache is full', async () => {
    const { calls, search } = counted(page([]));
    const directory = payerDirectory({ search, clock: { now: () => 0 }, maxEntries: 2 });
    for (const q of ['a', 'b', 'c']) await directory.search({ q, pageSize: 20 });
    await directory.search({ q: 'c', pageSize: 20 });
    expect(calls).toHaveLength(3);
    await directory.search({ q: 'a', pageSize: 20 });
    expect(calls).toHaveLength(4);
  });

  it('finds a payer by primary id, alias or Stedi id (case and spaces aside), and not by a fuzzy neighbour', async () => {
    const neighbour = { displayName: 'Aetna Better Health', primaryPayerId: '60055', aliases: [] };
    const { search } = counted(page([neighbour, AETNA]));
    const directory = payerDirectory({ search, clock: { now: () => 0 } });
    for (const id of ['60054', ' aetna ', 'AETNA1']) {
      const found = await directory.find(id);
      expect([id, found.ok && found.value?.payerId]).toEqual([id, '60054']);
    }
    const missing = await directory.find('60056');
    expect(missing).toEqual({ ok: true, value: undefined });
  });
});
