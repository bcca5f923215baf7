import { systemClock, type Clock } from '../config/index.js';
import { ok, type Result } from '../errors/index.js';
import { payerFromStedi, payerHasId } from './from-stedi.js';
import type { DirectoryPage, DirectorySearch, Payer, PayerPage, PayerSearch } from './types.js';

/**
 * The payer directory with a per-container cache (docs/api.md#payer-directory): answers are kept for
 * an hour (CACHE_TTL_MS), keyed by the exact search; failures are not kept, so an outage is asked
 * again on the next request. The cache is bounded (oldest entry dropped first). Clock injected.
 */

const CACHE_TTL_MS = 60 * 60 * 1000;
const MAX_ENTRIES = 1000;
/** Results asked for when looking one payer up by id (exact matches are picked from them). */
const LOOKUP_PAGE_SIZE = 50;

type SearchUpstream = (search: DirectorySearch) => Promise<Result<DirectoryPage>>;

export interface PayerDirectoryOptions {
  search: SearchUpstream;
  clock?: Clock;
  ttlMs?: number;
  maxEntries?: number;
}

export interface PayerDirectory {
  search(search: PayerSearch): Promise<Result<PayerPage>>;
  /** The payer one of whose ids (primary, alias, Stedi id) is `payerId`; undefined when none is. */
  find(payerId: string): Promise<Result<Payer | undefined>>;
}

function upstreamSearch(search: PayerSearch): DirectorySearch {
  const upstream: DirectorySearch = { pageSize: search.pageSize };
  if (search.q) upstream.query = search.q;
  if (search.transaction === 'eligibility') upstream.eligibilityCheck = 'SUPPORTED';
  if (search.transaction === 'cob') upstream.coordinationOfBenefits = 'SUPPORTED';
  if (search.pageToken) upstream.pageToken = search.pageToken;
  return upstream;
}

export function payerDirectory(options: PayerDirectoryOptions): PayerDirectory {
  const clock = options.clock ?? systemClock;
  const now = (): number => clock.now();
  const ttlMs = options.ttlMs ?? CACHE_TTL_MS;
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  const cache = new Map<string, { at: number; page: PayerPage }>();

  async function cached(search: PayerSearch): Promise<Result<PayerPage>> {
    const key = JSON.stringify([search.q ?? '', search.transaction ?? '', search.pageSize, search.pageToken ?? '']);
    const hit = cache.get(key);
    if (hit && now() - hit.at < ttlMs) return ok(hit.page);
    cache.delete(key);
    const answer = await options.search(upstreamSearch(search));
    if (!answer.ok) return answer;
    const page: PayerPage = { payers: answer.value.items.map(payerFromStedi) };
    if (answer.value.nextPageToken) page.nextPageToken = answer.value.nextPageToken;
    cache.set(key, { at: now(), page });
    while (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
    return ok(page);
  }

  return {
    search: cached,
    async find(payerId) {
      const page = await cached({ q: payerId.trim(), pageSize: LOOKUP_PAGE_SIZE });
      if (!page.ok) return page;
      return ok(page.value.payers.find((payer) => payerHasId(payer, payerId)));
    },
  };
}
