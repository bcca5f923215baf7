import type { Clock } from '../config/index.js';
import type { Enrollment, EnrollmentStore } from '../enrollment/index.js';

/**
 * The enrollments as a batch worker reads them (docs/batch.md#engine): a batch is usually one
 * practice's providers over and over, so an active enrollment is kept for `ttlMs` instead of being read
 * again for every item. Only active enrollments are kept: a provider enrolled or re-enabled a moment
 * ago is seen at once, and a revoked or changed one reaches the worker within `ttlMs`. Reads that fail
 * are not kept.
 */
export function cachedEnrollments(store: EnrollmentStore, ttlMs: number, clock: Clock): EnrollmentStore {
  const found = new Map<string, { enrollment: Enrollment; until: number }>();
  return {
    async get(providerId) {
      const kept = found.get(providerId);
      if (kept && kept.until > clock.now()) return kept.enrollment;
      const enrollment = await store.get(providerId);
      if (enrollment?.status === 'active') found.set(providerId, { enrollment, until: clock.now() + ttlMs });
      else found.delete(providerId);
      return enrollment;
    },
    put: (enrollment) => store.put(enrollment),
  };
}
