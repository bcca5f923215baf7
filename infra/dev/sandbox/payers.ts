/**
 * The sandbox clearinghouse's Payers API search (docs/api.md#sandboxes): `GET /payers/search` over
 * SANDBOX_PAYERS (./payer-list.ts) in Stedi's wire shape, `{items: [{payer, score}], nextPageToken?}`.
 * Typo-tolerant matching is Fuse.js's (Bitap), not ours; an exact payer id or alias comes first.
 * Filters: `eligibilityCheck=SUPPORTED` / `coordinationOfBenefits=SUPPORTED` keep payers whose flag
 * is SUPPORTED or ENROLLMENT_REQUIRED. Paging: `pageSize` (1–100, default 20) and an opaque token.
 */
import Fuse from 'fuse.js';
import type { StediPayerRecord } from '../../../lib/upstream/index.js';
import { SANDBOX_PAYERS, type SandboxPayerRow } from './payer-list.js';

export interface SandboxPayerSearch {
  status: number;
  body: unknown;
}

const MAX_PAGE_SIZE = 100;
const DEFAULT_PAGE_SIZE = 20;

function record(row: SandboxPayerRow): StediPayerRecord {
  const payer: StediPayerRecord = {
    displayName: row.name,
    primaryPayerId: row.payerId,
    aliases: row.aliases ?? [row.payerId],
    coverageTypes: row.coverage,
    operatingStates: row.states ?? [],
    transactionSupport: { eligibilityCheck: row.eligibility, coordinationOfBenefits: row.cob },
  };
  return row.stediId ? { stediId: row.stediId, ...payer } : payer;
}

const RECORDS = SANDBOX_PAYERS.map(record);
const KEYS = ['displayName', 'primaryPayerId', 'aliases', 'stediId'] as const;
const FUSE = new Fuse(RECORDS, {
  keys: [
    { name: 'displayName', weight: 3 },
    { name: 'primaryPayerId', weight: 2 },
    { name: 'aliases', weight: 2 },
    { name: 'stediId', weight: 1 },
  ],
  includeScore: true,
  ignoreLocation: true,
  threshold: 0.4,
});

const idsOf = (payer: StediPayerRecord) => [payer.primaryPayerId, ...payer.aliases, ...(payer.stediId ? [payer.stediId] : [])].map((id) => id.toUpperCase());
const allows = (value: string | undefined) => value === 'SUPPORTED' || value === 'ENROLLMENT_REQUIRED';

/** Answers one search from its query parameters. */
export function sandboxPayerSearch(params: URLSearchParams): SandboxPayerSearch {
  const query = (params.get('query') ?? '').trim();
  const pageSize = params.has('pageSize') ? Number(params.get('pageSize')) : DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    return { status: 400, body: { message: `pageSize must be between 1 and ${MAX_PAGE_SIZE}` } };
  }
  const token = params.get('pageToken');
  const offset =
    token === null
      ? 0
      : Number(
          Buffer.from(token, 'base64url')
            .toString('utf8')
            .replace(/^offset:/, ''),
        );
  if (!Number.isInteger(offset) || offset < 0) return { status: 400, body: { message: 'pageToken is not valid' } };

  let scored: { payer: StediPayerRecord; score: number }[];
  if (query === '') {
    scored = [...RECORDS].sort((a, b) => a.displayName.localeCompare(b.displayName)).map((payer) => ({ payer, score: 0 }));
  } else {
    const wanted = query.toUpperCase();
    const exact = RECORDS.filter((payer) => idsOf(payer).includes(wanted));
    // Every word must match somewhere ("blue cross texas"), each with Fuse's typo tolerance.
    const words = query.split(/\s+/).filter(Boolean);
    const perWord = words.map((word) => ({ $or: KEYS.map((key) => ({ [key]: word })) }));
    const fuzzy = FUSE.search(words.length === 1 ? query : { $and: perWord }).filter((hit) => !exact.includes(hit.item));
    // Stedi's scores grow with relevance; Fuse's fall (0 is a perfect match).
    scored = [
      ...exact.map((payer) => ({ payer, score: 100 })),
      ...fuzzy.map((hit) => ({ payer: hit.item, score: Math.round((1 - (hit.score ?? 1)) * 10000) / 100 })),
    ];
  }
  if (params.get('eligibilityCheck') === 'SUPPORTED') scored = scored.filter(({ payer }) => allows(payer.transactionSupport?.eligibilityCheck));
  if (params.get('coordinationOfBenefits') === 'SUPPORTED') scored = scored.filter(({ payer }) => allows(payer.transactionSupport?.coordinationOfBenefits));

  const items = scored.slice(offset, offset + pageSize);
  const next = offset + pageSize < scored.length ? Buffer.from(`offset:${offset + pageSize}`).toString('base64url') : undefined;
  return { status: 200, body: next ? { items, nextPageToken: next } : { items } };
}
