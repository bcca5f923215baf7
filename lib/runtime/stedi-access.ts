import { authorizeProvider } from '../enrollment/authorize.js';
import type { Enrollment } from '../enrollment/types.js';
import { ok, type Result } from '../errors/index.js';
import type { StediConnection } from '../upstream/stedi.js';
import type { Runtime } from './index.js';

/**
 * What a real eligibility or COB check needs before it may call Stedi: the caller's active
 * enrollment of the provider for this payer (403 PROVIDER_NOT_ENROLLED otherwise) and the
 * clearinghouse connection (500 CONFIGURATION_ERROR without a key). Enrollment is read per
 * request, so disabling a provider takes effect at once for real-time checks (a batch worker keeps an
 * active enrollment for up to a minute: docs/batch.md#engine).
 */
export async function stediAccess(
  runtime: Runtime,
  clientId: string,
  providerId: string,
  payerId: string,
): Promise<Result<{ enrollment: Enrollment; stedi: StediConnection }>> {
  const enrollment = await authorizeProvider(await runtime.enrollments(), clientId, providerId, payerId);
  if (!enrollment.ok) return enrollment;
  const apiKey = await runtime.stediKey();
  if (!apiKey.ok) return apiKey;
  return ok({
    enrollment: enrollment.value,
    stedi: {
      baseUrl: runtime.config.stediBaseUrl,
      apiKey: apiKey.value,
      budgetMs: runtime.config.upstreamBudgetMs,
      ...(runtime.upstreamIdempotencyKey ? { idempotencyKey: runtime.upstreamIdempotencyKey } : {}),
    },
  });
}
