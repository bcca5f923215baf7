import { fixedClock } from '../config/index.js';
import { fail, ok, serviceError, type FieldError, type Result } from '../errors/index.js';
import { errorResponse } from '../http/index.js';
import { validateBody } from '../validation/index.js';
import { checkCallbackUrl } from './callback-url.js';
import type { BatchSettings, ItemRecord } from './types.js';

/**
 * A submitted batch read into items (docs/batch.md#submit). The envelope (`items`, `name`,
 * `callbackUrl`) must be right or the batch is a 400; each item is then validated exactly like the
 * real-time body, and one that is not valid is kept as FAILED with the very 400 the real-time route
 * would answer for it: an invalid item never sinks the batch.
 */

export interface Envelope {
  items: unknown[];
  name?: string;
  callbackUrl?: string;
}

export interface Submission {
  name?: string;
  callbackUrl?: string;
  /** Items without batch id yet, in submitted order. */
  items: Omit<ItemRecord, 'batchId'>[];
  invalidCount: number;
}

const ENVELOPE_KEYS = new Set(['items', 'name', 'callbackUrl']);
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is this pattern's job.
const CONTROL = /[\u0000-\u001f\u007f]/;
/**
 * 1–64 ASCII characters, at least one visible; spaces, tabs and line breaks allowed anywhere (the
 * caller's own reference, never sent upstream: docs/batch.md#submit), no other control character.
 * The rules the OpenAPI document states too.
 */
export const CLIENT_REF = /^(?=[\t\n\r\x20-\x7e]*[\x21-\x7e])[\t\n\r\x20-\x7e]{1,64}$/;
export const CLIENT_REF_MESSAGE = 'must be 1 to 64 visible characters (spaces, tabs and line breaks allowed; no other control characters)';
export const MAX_NAME = 100;

const invalid = (errors: FieldError[]) =>
  fail<never>(serviceError('INVALID_REQUEST', { message: `The batch is invalid (${errors.length} problem${errors.length === 1 ? '' : 's'})`, errors }));

/** The envelope's problems: no items, too many, a bad name or callback URL, an unknown key. */
export function readEnvelope(body: Record<string, unknown>, settings: BatchSettings, options: { allowLoopbackHttp: boolean }): Result<Envelope> {
  const errors: FieldError[] = [];
  for (const key of Object.keys(body))
    if (!ENVELOPE_KEYS.has(key)) errors.push({ field: key, message: 'is not a field of a batch (items, name, callbackUrl)' });
  const items = body.items;
  if (!Array.isArray(items) || items.length === 0 || items.length > settings.maxItems) {
    errors.push({ field: 'items', message: `must be a list of 1 to ${settings.maxItems.toLocaleString('en-US')} eligibility requests` });
  }
  const name = body.name;
  if (name !== undefined && (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME || CONTROL.test(name))) {
    errors.push({ field: 'name', message: `must be text of 1 to ${MAX_NAME} characters` });
  }
  const callbackUrl = body.callbackUrl;
  if (callbackUrl !== undefined) {
    const problem = typeof callbackUrl === 'string' ? checkCallbackUrl(callbackUrl, options) : 'must be an https URL';
    if (problem) errors.push({ field: 'callbackUrl', message: problem });
  }
  if (errors.length > 0) return invalid(errors);
  return ok({
    items: items as unknown[],
    ...(name === undefined ? {} : { name: name as string }),
    ...(callbackUrl === undefined ? {} : { callbackUrl: callbackUrl as string }),
  });
}

/** The 400 the real-time route answers for a body, as the status and JSON text an item keeps. */
function refusal(error: Parameters<typeof errorResponse>[0], requestId: string): { status: number; answer: string } {
  const response = errorResponse(error, requestId);
  return { status: response.statusCode, answer: response.body };
}

/** Each item validated like the real-time body; `requestIdOf(index)` names the request id its 400 carries. */
export function readItems(envelope: Envelope, requestIdOf: (index: number) => string, now: Date): Submission {
  let invalidCount = 0;
  const items = envelope.items.map((raw, index): Omit<ItemRecord, 'batchId'> => {
    const base = { index, attempts: 0 };
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      invalidCount++;
      return {
        ...base,
        state: 'FAILED',
        counted: false,
        completedAt: now.toISOString(),
        ...refusal(serviceError('INVALID_JSON', { message: 'The body must be a JSON object' }), requestIdOf(index)),
      };
    }
    const { clientRef, ...body } = raw as Record<string, unknown>;
    const refOk = clientRef === undefined || (typeof clientRef === 'string' && CLIENT_REF.test(clientRef));
    const ref = refOk && typeof clientRef === 'string' ? { clientRef } : {};
    const valid = validateBody('eligibility', body, { clock: fixedClock(now) });
    if (valid.ok && refOk) {
      return { ...base, ...ref, state: 'PENDING', counted: body.mockRequest !== true, request: valid.value as unknown as Record<string, unknown> };
    }
    invalidCount++;
    const errors = [...(refOk ? [] : [{ field: 'clientRef', message: CLIENT_REF_MESSAGE }]), ...(valid.ok ? [] : (valid.error.errors ?? []))];
    const error = valid.ok ? serviceError('INVALID_REQUEST', { message: 'The request body is invalid (1 problem)', errors }) : { ...valid.error, errors };
    return { ...base, ...ref, state: 'FAILED', counted: false, completedAt: now.toISOString(), ...refusal(error, requestIdOf(index)) };
  });
  return {
    ...(envelope.name === undefined ? {} : { name: envelope.name }),
    ...(envelope.callbackUrl === undefined ? {} : { callbackUrl: envelope.callbackUrl }),
    items,
    invalidCount,
  };
}
