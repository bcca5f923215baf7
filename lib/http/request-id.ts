import { randomUUID } from 'node:crypto';
import { headerOf, type HeaderMap } from './headers.js';

/**
 * The request id (docs/api.md#request-ids): the caller's `X-Request-Id` when it is 1–128 of
 * `[A-Za-z0-9._:-]`, else the gateway's id, else a fresh UUID. Anything else the caller sends
 * in that header is ignored, so it can never smuggle text into a log line or a response header.
 */

const CALLER_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function isValidRequestId(value: string | undefined): value is string {
  return value !== undefined && CALLER_ID.test(value);
}

export function requestIdFor(headers: HeaderMap, gatewayId?: string): string {
  const caller = headerOf(headers, 'x-request-id')?.trim();
  if (isValidRequestId(caller)) return caller;
  return gatewayId || randomUUID();
}
