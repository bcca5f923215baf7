/**
 * The real COB check (docs/api.md#coordination-of-benefits): Medicare ids are refused before any paid call, then the request
 * goes to the clearinghouse's COB check (runtime.clearinghouse) under the hygiene rule (AAA 42/80 in the answer's errors earns the
 * one retry), and the answer is mapped. Returns only log-safe metadata beside the result.
 */
import type { Enrollment } from '../enrollment/index.js';
import { type AaaRejection, fail, serviceError, type Result } from '../errors/index.js';
import type { Clearinghouse } from '../runtime/index.js';
import { onlyUnavailable } from '../x12/index.js';
import { cobErrors } from './aaa.js';
import { classifyCobAnswer } from './map.js';
import { buildCobRequest, isMedicarePayer, type CobQuery } from './request.js';
import type { CobResult } from './types.js';

interface CobCheckMeta {
  /** Which upstream endpoint answered (for the log line); none when no call was made (Medicare). */
  upstream?: string;
  attempts: number;
  traceId?: string;
  /** AAA codes in the final answer's errors. */
  aaaCodes: string[];
  upstreamMs: number;
  httpStatus?: number;
}

export interface CobCheck {
  result: Result<CobResult>;
  meta: CobCheckMeta;
}

export interface CheckCobArgs {
  query: CobQuery;
  enrollment: Enrollment;
  clearinghouse: Clearinghouse;
  /** Sent with the call (a batch item's attempt: docs/batch.md#engine). */
  idempotencyKey?: string;
  controlNumber?: string;
}

export async function checkCob(args: CheckCobArgs): Promise<CobCheck> {
  const { query } = args;
  if (isMedicarePayer(query.payerId)) {
    const error = serviceError('UNSUPPORTED_PAYER', { message: 'Coordination of benefits checks are not available for Medicare' });
    return { result: fail(error), meta: { attempts: 0, aaaCodes: [], upstreamMs: 0 } };
  }
  const request = buildCobRequest(query, args.enrollment, args.controlNumber ? { controlNumber: args.controlNumber } : {});
  // Each reply is read once: its AAA errors decide the retry, the logged codes and the answer.
  const read = (_status: number, body: unknown): { reading: AaaRejection[]; retryable: boolean } => {
    const rejections = cobErrors(body);
    return { reading: rejections, retryable: onlyUnavailable(rejections.map((r) => r.code)) };
  };

  const call = await args.clearinghouse.coordinationOfBenefits(
    { body: request, ...(args.idempotencyKey ? { idempotencyKey: args.idempotencyKey } : {}) },
    read,
  );
  const meta: CobCheckMeta = { upstream: call.meta.upstream, attempts: call.meta.attempts, aaaCodes: [], upstreamMs: call.meta.latencyMs };
  if (call.meta.traceId) meta.traceId = call.meta.traceId;
  if (call.meta.httpStatus !== undefined) meta.httpStatus = call.meta.httpStatus;
  if (!call.result.ok) return { result: call.result, meta };

  const { httpStatus, body, reading: rejections } = call.result.value;
  meta.aaaCodes = rejections.map((r) => r.code);
  return { result: classifyCobAnswer(httpStatus, body, rejections, query.serviceTypeCodes), meta };
}
