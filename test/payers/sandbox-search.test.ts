import { describe, expect, it } from '@jest/globals';
import { SANDBOX_PAYERS } from '../../infra/dev/sandbox/payer-list.js';
import { sandboxPayerSearch } from '../../infra/dev/sandbox/payers.js';

/** The sandbox directory: real payers, Stedi's wire shape, typo-tolerant search, filters and paging. */

type Item = { payer: { displayName: string; primaryPayerId: string; transactionSupport: Record<string, string> }; score: number };
const search = (params: Record<string, string>) =>
  sandboxPayerSearch(new URLSearchParams(params)) as { status: number; body: { items: Item[]; nextPageToken?: string } };
const ids = (params: Record<string, string>) => search(params).body.items.map((item) => item.payer.primaryPayerId);

describe('sandbox payer directory', () => {
  it('holds at least 150 payers, each id once, with the well-known ids', () => {
    expect(SANDBOX_PAYERS.length).toBeGreaterThanOrEqual(150);
    expect(new Set(SANDBOX_PAYERS.map((p) => p.payerId.toUpperCase())).size).toBe(SANDBOX_PAYERS.length);
    const byId = new Map(SANDBOX_PAYERS.map((p) => [p.payerId, p.name]));
    expect([byId.get('60054'), byId.get('62308'), byId.get('87726'), byId.get('CMS')]).toEqual([
      'Aetna',
      'Cigna',
      'UnitedHealthcare',
      'National Centers for Medicare & Medicaid Services',
    ]);
  });

  it('tolerates typos: "Aetan" finds Aetna first, "Humna" finds Humana first', () => {
    expect(ids({ query: 'Aetan' })[0]).toBe('60054');
    expect(ids({ query: 'Humna' })[0]).toBe('61101');
  });

  it('matches every word of a longer query, and puts an exact id or alias first', () => {
    expect(ids({ query: 'blue cross texas' })[0]).toBe('84980');
    expect(ids({ query: 'TXBCBS' })[0]).toBe('84980');
    expect(ids({ query: '87726' })[0]).toBe('87726');
  });

  it('filters by transaction support (SUPPORTED or ENROLLMENT_REQUIRED)', () => {
    const eligibility = search({ query: 'delta dental', eligibilityCheck: 'SUPPORTED', pageSize: '100' }).body.items;
    expect(eligibility.length).toBeGreaterThan(0);
    expect(eligibility.map((i) => i.payer.primaryPayerId)).not.toContain('54097');
    expect(ids({ query: 'medicare', eligibilityCheck: 'SUPPORTED', pageSize: '100' })).toContain('CMS');
    expect(ids({ query: 'unicare', coordinationOfBenefits: 'SUPPORTED' })).not.toContain('80314');
  });

  it('pages with an opaque token until the last page', () => {
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = search({ pageSize: '40', ...(token ? { pageToken: token } : {}) }).body;
      seen.push(...page.items.map((i) => i.payer.primaryPayerId));
      token = page.nextPageToken;
    } while (token);
    expect(seen).toHaveLength(SANDBOX_PAYERS.length);
    expect(new Set(seen).size).toBe(SANDBOX_PAYERS.length);
    expect(search({ pageSize: '0' }).status).toBe(400);
  });
});
