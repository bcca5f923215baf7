/** docs/eligibility.md#payer-rejections-aaa: which ServiceError a set of payer AAA rejections becomes. */
import { serviceError, type AaaRejection, type ServiceError } from '../errors/index.js';
import { UNAVAILABLE_AAA } from './aaa-codes.js';

/** Codes that are not the payer rejecting the request's data: unavailable, or our own envelope (79). */
const NOT_DATA = new Set(['42', '79', '80']);

/**
 * Whether a reply's AAA codes say only "try again later": some 42 or 80 and no code about the request's
 * data. A 42 or 80 beside a data code (72, 75, …) is the payer rejecting the request: never retried,
 * since a retry may be charged and would get the same rejection (docs/eligibility.md#payer-rejections-aaa).
 */
export const onlyUnavailable = (codes: readonly string[]): boolean =>
  codes.some((code) => UNAVAILABLE_AAA.has(code)) && codes.every((code) => NOT_DATA.has(code));

/** 422 PAYER_REJECTED if any code is not 42/79/80; else 503 if any is 42/80; else 502. */
export function errorForRejections(rejections: AaaRejection[]): ServiceError {
  const codes = rejections.map((r) => r.code);
  if (onlyUnavailable(codes)) return serviceError('PAYER_UNAVAILABLE', { rejections });
  if (codes.some((code) => !NOT_DATA.has(code))) return serviceError('PAYER_REJECTED', { rejections });
  return serviceError('UPSTREAM_ERROR', { rejections });
}
