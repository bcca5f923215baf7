import type { Result } from '../errors/index.js';
import type { Route } from '../http/api-handler.js';
import { log } from '../logging/index.js';
import { payerNotSupported } from '../payers/gate.js';
import type { Runtime } from '../runtime/index.js';
import { stediAccess } from '../runtime/stedi-access.js';
import type { CobRequest } from '../validation/index.js';
import { checkCob } from './check.js';
import { mockCob } from './mock.js';
import { isMedicarePayer } from './request.js';
import type { CobResult } from './types.js';

/**
 * POST /api/eligibility/cob/v1 (docs/api.md#coordination-of-benefits): mock mode answers from the fixed sets; a real search
 * needs the caller's active enrollment of the provider, then asks Stedi's COB check.
 */
export function cobRoute(runtime: Runtime): Route<CobRequest> {
  return async ({ body, clientId }) => {
    const { mockRequest, ...query } = body;
    if (mockRequest === true) {
      const mock = mockCob(query);
      const logFields = { mock: true, payerId: body.payerId };
      return mock.ok ? { ok: true, body: mock.body, log: logFields } : { ok: false, error: mock.error, log: logFields };
    }

    const access = await stediAccess(runtime, clientId, body.providerId, body.payerId);
    if (!access.ok) return access;
    // Medicare keeps its own answer (422 UNSUPPORTED_PAYER, ./check.ts), which needs no lookup.
    const refused = isMedicarePayer(body.payerId) ? undefined : await payerNotSupported(runtime.payers, body.payerId, 'cob');
    if (refused) return { ok: false, error: refused, log: { payerId: body.payerId } };
    const result = await loggedCobCheck(runtime, { query, ...access.value });
    return result.ok ? { ok: true, body: result.value } : result;
  };
}

/** The Stedi COB check plus its upstream log line; shared with eligibility's `runCobCheck`. */
export async function loggedCobCheck(runtime: Runtime, args: Parameters<typeof checkCob>[0]): Promise<Result<CobResult>> {
  const { result, meta } = await checkCob(args);
  log.info('cob upstream', {
    upstream: 'stedi-cob',
    sandbox: runtime.sandbox.stedi,
    payerId: args.query.payerId,
    attempts: meta.attempts,
    upstreamMs: meta.upstreamMs,
    aaaCodes: meta.aaaCodes,
    ...(meta.traceId ? { traceId: meta.traceId } : {}),
    ...(result.ok ? {} : { code: result.error.code }),
  });
  return result;
}
