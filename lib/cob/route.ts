import { authorizeProvider } from '../enrollment/index.js';
import type { Result } from '../errors/index.js';
import type { Route } from '../http/index.js';
import { log } from '../logging/index.js';
import { payerNotSupported } from '../payers/index.js';
import type { Runtime } from '../runtime/index.js';
import type { CobRequest } from '../validation/index.js';
import { checkCob, type CheckCobArgs } from './check.js';
import { mockCob } from './mock.js';
import { isMedicarePayer } from './request.js';
import type { CobResult } from './types.js';

/**
 * POST /api/eligibility/cob/v1 (docs/api.md#coordination-of-benefits): mock mode answers from the fixed sets; a real search
 * needs the caller's active enrollment of the provider, then asks the clearinghouse's COB check.
 */
export function cobRoute(runtime: Runtime): Route<CobRequest> {
  return async ({ body, clientId }) => {
    const { mockRequest, ...query } = body;
    if (mockRequest === true) {
      const mock = mockCob(query);
      const logFields = { mock: true, payerId: body.payerId };
      return mock.ok ? { ok: true, body: mock.body, log: logFields } : { ok: false, error: mock.error, log: logFields };
    }

    const enrollment = await authorizeProvider(await runtime.enrollments(), clientId, body.providerId, body.payerId);
    if (!enrollment.ok) return enrollment;
    // Medicare keeps its own answer (422 UNSUPPORTED_PAYER, ./check.ts), which needs no lookup.
    const refused = isMedicarePayer(body.payerId) ? undefined : await payerNotSupported(runtime.payers, body.payerId, 'cob');
    if (refused) return { ok: false, error: refused, log: { payerId: body.payerId } };
    const result = await loggedCobCheck(runtime, { query, enrollment: enrollment.value });
    return result.ok ? { ok: true, body: result.value } : result;
  };
}

/**
 * The COB check through the runtime's clearinghouse plus its upstream log line; shared with
 * eligibility's `runCobCheck`.
 */
export async function loggedCobCheck(runtime: Runtime, args: Omit<CheckCobArgs, 'clearinghouse' | 'idempotencyKey'>): Promise<Result<CobResult>> {
  const { clearinghouse, upstreamAttempt } = runtime;
  const { result, meta } = await checkCob({ ...args, clearinghouse, ...(upstreamAttempt ? { idempotencyKey: upstreamAttempt.key } : {}) });
  log.info('cob upstream', {
    upstream: meta.upstream,
    sandbox: clearinghouse.sandbox,
    payerId: args.query.payerId,
    attempts: meta.attempts,
    upstreamMs: meta.upstreamMs,
    aaaCodes: meta.aaaCodes,
    ...(meta.traceId ? { traceId: meta.traceId } : {}),
    ...(result.ok ? {} : { code: result.error.code }),
  });
  return result;
}
