import { describe, it, expect } from '@jest/globals';
import { authorizeProvider } from '../../lib/enrollment/authorize.js';
import type { Enrollment, EnrollmentStore } from '../../lib/enrollment/types.js';

const records: Enrollment[] = [
  { providerId: 'OPEN', clientId: 'acme', npi: '1234567893', organizationName: 'Open Clinic', status: 'active' },
  { providerId: 'LIMITED', clientId: 'acme', npi: '1987654328', firstName: 'Ada', lastName: 'L', status: 'active', payerIds: ['P1'] },
  { providerId: 'OFF', clientId: 'acme', npi: '1555555550', organizationName: 'Closed', status: 'inactive' },
  { providerId: 'THEIRS', clientId: 'other', npi: '1765432103', organizationName: 'Other', status: 'active' },
];

const memoryStore = (list: Enrollment[]): EnrollmentStore => ({
  get: async (id) => list.find((r) => r.providerId === id),
  put: async () => {
    throw new Error('not used');
  },
});

describe('authorizeProvider', () => {
  const store = memoryStore(records);

  it('allows an active enrollment of the caller, with or without a payer list', async () => {
    expect(await authorizeProvider(store, 'acme', 'OPEN', 'ANY')).toEqual({ ok: true, value: records[0] });
    expect(await authorizeProvider(store, 'acme', 'LIMITED', 'P1')).toEqual({ ok: true, value: records[1] });
  });

  it('refuses unknown, inactive, other-client and unlisted-payer with one identical body', async () => {
    const refusals = await Promise.all([
      authorizeProvider(store, 'acme', 'NOPE', 'P1'),
      authorizeProvider(store, 'acme', 'OFF', 'P1'),
      authorizeProvider(store, 'acme', 'THEIRS', 'P1'),
      authorizeProvider(store, 'acme', 'LIMITED', 'P2'),
      authorizeProvider(store, 'other', 'OPEN', 'P1'),
    ]);
    for (const refusal of refusals) {
      expect(refusal).toEqual({
        ok: false,
        error: { code: 'PROVIDER_NOT_ENROLLED', status: 403, message: 'The provider is not enrolled for this client and payer' },
      });
    }
    expect(new Set(refusals.map((r) => JSON.stringify(r))).size).toBe(1);
  });

  it('lets a store failure propagate instead of refusing', async () => {
    const broken: EnrollmentStore = { get: async () => Promise.reject(new Error('table unavailable')), put: async () => undefined };
    await expect(authorizeProvider(broken, 'acme', 'OPEN', 'P1')).rejects.toThrow('table unavailable');
  });
});
