import { authorizeProvider } from '../enrollment/authorize.js';
import type { Route } from '../http/api-handler.js';
import { log } from '../logging/index.js';
import type { Runtime } from '../runtime/index.js';
import type { CobRequest } from '../validation/index.js';
import { checkCob } from './check.js';
import { mockCob } from './mock.js';

/**
 * POST /api/eligibility/cob/v1 (CONTRACT §5): mock mode answers from the fixed sets; a real search
 * needs the caller's active enrollment of the provider, then asks Stedi's COB check.
 */
export function cobRoute(runtime: Runtime): Route<CobRequest> {
  return async ({ body, clientId }) => {
    const { mockRequest, ...query } = body;
    if (mockRequest === true) {
      const mock = mockCob(query);
      log.info('mock cob', { mock: true, payerId: body.payerId, status: mock.ok ? 200 : mock.error.status });
      return mock.ok ? { ok: true, body: mock.body } : { ok: false, error: mock.error };
    }

    const enrollment = await authorizeProvider(runtime.enrollments(), clientId, body.providerId, body.payerId);
    if (!enrollment.ok) return enrollment;
    const apiKey = await runtime.stediKey();
    if (!apiKey.ok) return apiKey;
    const stedi = { baseUrl: runtime.config.stediBaseUrl, apiKey: apiKey.value, budgetMs: runtime.config.upstreamBudgetMs };

    const { result, meta } = await checkCob({ query, enrollment: enrollment.value, stedi });
    log.info('cob upstream', {
      upstream: 'stedi-cob',
      sandbox: runtime.sandbox.stedi,
      payerId: body.payerId,
      attempts: meta.attempts,
      ...(result.ok ? {} : { code: result.error.code }),
    });
    return result.ok ? { ok: true, body: result.value } : result;
  };
}
