import { describe, expect, it } from '@jest/globals';
import { cachedEnrollments } from '../../lib/batch/enrollment-cache.js';
import type { Enrollment, EnrollmentStore } from '../../lib/enrollment/types.js';

/** The batch worker's enrollment reads: one per provider per minute, only what was found, never a failure. */

const ENROLLMENT = { providerId: 'P1', clientId: 'clinic', npi: '1234567893', organizationName: 'Clinic', status: 'active' } as Enrollment;

function countingStore(records: Map<string, Enrollment>) {
  const reads: string[] = [];
  let failing = false;
  const store: EnrollmentStore = {
    async get(providerId) {
      reads.push(providerId);
      if (failing) throw new Error('table unavailable');
      return records.get(providerId);
    },
    put: async (enrollment) => void records.set(enrollment.providerId, enrollment),
  };
  return { store, reads, fail: (on: boolean) => (failing = on) };
}

describe('cachedEnrollments', () => {
  it('reads a found enrollment once per ttl, then again; an unknown provider every time', async () => {
    let clock = 0;
    const records = new Map([['P1', ENROLLMENT]]);
    const { store, reads } = countingStore(records);
    const cached = cachedEnrollments(store, 60_000, { now: () => clock });
    expect(await cached.get('P1')).toEqual(ENROLLMENT);
    clock = 59_999;
    expect(await cached.get('P1')).toEqual(ENROLLMENT);
    expect(await cached.get('P2')).toBeUndefined();
    expect(await cached.get('P2')).toBeUndefined();
    expect(reads).toEqual(['P1', 'P2', 'P2']);

    // Revoked: seen once the minute is over.
    records.set('P1', { ...ENROLLMENT, status: 'inactive' } as Enrollment);
    clock = 60_000;
    expect((await cached.get('P1'))?.status).toBe('inactive');
    expect(reads).toEqual(['P1', 'P2', 'P2', 'P1']);

    // An inactive enrollment is not kept: re-enabled, it is seen at the next read.
    records.set('P1', ENROLLMENT);
    expect((await cached.get('P1'))?.status).toBe('active');
    expect(reads).toEqual(['P1', 'P2', 'P2', 'P1', 'P1']);
  });

  it('keeps nothing from a read that failed, and forgets a provider the store no longer has', async () => {
    let clock = 0;
    const records = new Map([['P1', ENROLLMENT]]);
    const { store, reads, fail } = countingStore(records);
    const cached = cachedEnrollments(store, 1_000, { now: () => clock });
    fail(true);
    await expect(cached.get('P1')).rejects.toThrow('table unavailable');
    fail(false);
    expect(await cached.get('P1')).toEqual(ENROLLMENT);
    records.delete('P1');
    clock = 1_000;
    expect(await cached.get('P1')).toBeUndefined();
    expect(await cached.get('P1')).toBeUndefined();
    expect(reads).toEqual(['P1', 'P1', 'P1', 'P1']);
  });
});
