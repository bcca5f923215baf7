import type { Enrollment, EnrollmentStore } from '../enrollment/types.js';

/**
 * The enrollments as a batch worker reads them (docs/batch.md#engine): a batch is usually one
 * practice's providers over and over, so an enrollment found is kept for `ttlMs` instead of being read
 * again for every item. Only what was found is kept (a provider enrolled a moment ago is seen at once);
 * a revoked or changed enrollment reaches the worker within `ttlMs`. Reads that fail are not kept.
 */
export function cachedEnrollments(store: EnrollmentStore, ttlMs: number, now: () => number): EnrollmentStore {
  const found = new Map<string, { enrollment: Enrollment; until: number }>();
  return {
    async get(providerId) {
      const kept = found.get(providerId);
      if (kept && kept.until > now()) return kept.enrollment;
      const enrollment = await store.get(providerId);
      if (enrollment) found.set(providerId, { enrollment, until: now() + ttlMs });
      else found.delete(providerId);
      return enrollment;
    },
    put: (enrollment) => store.put(enrollment),
  };
}
