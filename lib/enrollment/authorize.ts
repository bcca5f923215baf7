import { fail, ok, serviceError, type Result } from '../errors/index.js';
import type { Enrollment, EnrollmentStore } from './types.js';

/**
 * Whether `clientId` may run a real check for `providerId` against `payerId` (docs/api.md#enrollment).
 * Every refusal is the same PROVIDER_NOT_ENROLLED error, so a caller cannot tell an unknown
 * provider from another client's, an inactive one, or a payer it is not enrolled for.
 * Store failures are thrown, not turned into a refusal: an outage is a 5xx, not a 403.
 */
/** `payerId` undefined: a call to no one payer (an insurance discovery), which needs the active enrollment alone. */
export async function authorizeProvider(
  store: EnrollmentStore,
  clientId: string,
  providerId: string,
  payerId: string | undefined,
): Promise<Result<Enrollment>> {
  const enrollment = await store.get(providerId);
  const allowed =
    enrollment !== undefined &&
    enrollment.clientId === clientId &&
    enrollment.status === 'active' &&
    (enrollment.payerIds === undefined || payerId === undefined || enrollment.payerIds.includes(payerId));
  return allowed ? ok(enrollment) : fail(serviceError('PROVIDER_NOT_ENROLLED'));
}
