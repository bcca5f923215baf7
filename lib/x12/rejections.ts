/** docs/eligibility.md#payer-rejections-aaa: which ServiceError a set of payer AAA rejections becomes. */
import { serviceError, type AaaRejection, type ServiceError } from '../errors/index.js';
import { UNAVAILABLE_AAA } from './aaa-codes.js';

/** Codes that are not the payer rejecting the request's data: unavailable, or our own envelope (79). */
const NOT_DATA = new Set(['42', '79', '80']);

/** 422 PAYER_REJECTED if any code is not 42/79/80; else 503 if any is 42/80; else 502. */
export function errorForRejections(rejections: AaaRejection[]): ServiceError {
  if (rejections.some((r) => !NOT_DATA.has(r.code))) return serviceError('PAYER_REJECTED', { rejections });
  if (rejections.some((r) => UNAVAILABLE_AAA.has(r.code))) return serviceError('PAYER_UNAVAILABLE', { rejections });
  return serviceError('UPSTREAM_ERROR', { rejections });
}
