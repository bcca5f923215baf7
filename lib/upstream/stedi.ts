/**
 * Stedi clearinghouse client (docs/api.md#upstreams): the raw X12 eligibility endpoint and the COB check.
 * Native fetch; base URL, key and budget come from the caller. Every HTTP outcome is classified into
 * the error table here, once, and every call goes through the shared retry policy.
 * Nothing here logs; the caller gets attempts, latency and the upstream trace id to log.
 */
import { fail, ok, serviceError, type Result, type ServiceError } from '../errors/index.js';
import { BODY_CAPS, capInWords, readCappedText } from './body.js';
import { isJsonObject } from './json.js';
import { parseRetryAfter, withRetry, type Attempt, type RetryOptions } from './retry.js';

const RAW_X12_PATH = '/change/medicalnetwork/eligibility/v3/raw-x12';
const COB_PATH = '/coordination-of-benefits';

export interface StediConnection {
  baseUrl: string;
  /** Missing or empty → 500 CONFIGURATION_ERROR without any call. */
  apiKey: string | undefined;
  budgetMs: number;
  /** Sent as the `Idempotency-Key` header (a batch item's attempt: docs/batch.md#engine). */
  idempotencyKey?: string;
}

interface StediCallMeta {
  attempts: number;
  latencyMs: number;
  /** HTTP status of the last answer, when there was one. */
  httpStatus?: number;
  /** Upstream request id of the last answer (x-amzn-requestid), for support tickets. */
  traceId?: string;
}

export interface StediCall<T> {
  result: Result<T>;
  meta: StediCallMeta;
}

export interface RawX12Reply<R> {
  /** The 271 (or a 999 when the 270 was rejected). */
  x12: string;
  httpStatus: number;
  /** What the caller's `read` made of this reply: each reply is read once. */
  reading: R;
}

/** The caller's reading of a reply, and whether the reply is worth one more attempt (AAA 42/80). */
export type ReadRawX12<R> = (x12Reply: string) => { reading: R; retryable: boolean };

export interface CobReply<R> {
  httpStatus: number;
  /** The parsed JSON object Stedi answered. */
  body: unknown;
  /** What the caller's `read` made of this reply: each reply is read once. */
  reading: R;
}

/** The caller's reading of a COB reply (200 or 400), and whether it is worth one more attempt (AAA 42/80). */
export type ReadCob<R> = (httpStatus: number, body: unknown) => { reading: R; retryable: boolean };

/** Test seams for the retry policy (timings); production uses the defaults. */
export type StediRetryTuning = Omit<RetryOptions, 'budgetMs'>;

/** Headers that carry the upstream's request id, first found wins. */
export const TRACE_HEADERS = ['x-amzn-requestid', 'x-amzn-request-id', 'x-request-id'];

const KEY_SETTING = 'STEDI_API_KEY';
const missingKey = (): ServiceError => serviceError('CONFIGURATION_ERROR', { message: `The clearinghouse API key (${KEY_SETTING}) is not configured` });
const rejectedKey = (): ServiceError => serviceError('CONFIGURATION_ERROR', { message: `The clearinghouse rejected the configured API key (${KEY_SETTING})` });

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * Classifies the parts of an HTTP answer every Stedi endpoint shares. Returns undefined when the
 * status is one the endpoint-specific reader should look at (200 and 400 carry payer answers).
 * `nowMs` is the retry policy's clock when the answer arrived (a Retry-After date is read against it).
 */
export function classifyStatus<T>(answer: HttpAnswer, nowMs: number): Attempt<T> | undefined {
  const { status } = answer;
  if (status === 401 || status === 403) return fail(rejectedKey());
  if (status === 429 || status >= 500) {
    const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'), nowMs);
    // Without a Retry-After header, serviceError gives the table's default.
    const retryAfterSeconds = retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(retryAfterMs / 1000));
    const error = serviceError('PAYER_UNAVAILABLE', {
      message: status === 429 ? 'The clearinghouse is rate limiting requests; try again later' : 'The clearinghouse is unavailable; try again later',
      retryAfterSeconds,
    });
    return retryAfterMs === undefined ? { retryable: true, error } : { retryable: true, error, retryAfterMs };
  }
  if (status === 200 || status === 400) return undefined;
  return fail(serviceError('UPSTREAM_ERROR', { message: `The clearinghouse answered with unexpected HTTP status ${status}` }));
}

/** How the clearinghouse is named in error messages (the payer search names its own endpoint). */
const CLEARINGHOUSE = 'The clearinghouse';
export const unreadable = (what: string): ServiceError => serviceError('UPSTREAM_ERROR', { message: `${CLEARINGHOUSE} answer could not be read (${what})` });

/** Where an attempt that got no readable answer ends: the budget's abort, a network error, a body past the cap. */
type FetchOutcome = { ok: true; value: HttpAnswer } | { ok: false; attempt: Attempt<never> };

/**
 * One HTTP exchange with the clearinghouse (every endpoint), its answer read up to `capBytes`
 * (./body.ts). Past the cap the connection is dropped and the attempt is a final 502
 * UPSTREAM_ERROR: an answer that large is never what was asked for, so it is not asked for again.
 * The budget's abort is a 504; a network error (a reset half way through the body too) is retryable.
 */
export async function fetchCapped(url: string, request: RequestInit, budget: AbortSignal, capBytes: number, who = CLEARINGHOUSE): Promise<FetchOutcome> {
  const dropped = new AbortController();
  try {
    const response = await fetch(url, { ...request, signal: AbortSignal.any([budget, dropped.signal]) });
    const body = await readCappedText(response, capBytes, () => dropped.abort());
    if (!body.ok)
      return { ok: false, attempt: fail(serviceError('UPSTREAM_ERROR', { message: `${who} answer could not be read (larger than ${capInWords(capBytes)})` })) };
    return { ok: true, value: { status: response.status, headers: response.headers, text: body.text } };
  } catch (error) {
    if (budget.aborted) return { ok: false, attempt: fail(serviceError('UPSTREAM_TIMEOUT', { message: `${who} did not answer in time` })) };
    void error; // the cause may quote the URL; it is not surfaced
    return { ok: false, attempt: { retryable: true, error: serviceError('PAYER_UNAVAILABLE', { message: `${who} could not be reached; try again later` }) } };
  }
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** How one endpoint is called: POST with a JSON body (the default) or GET, and how much of its answer is read. */
export interface StediExchange {
  method?: 'POST' | 'GET';
  /** Default BODY_CAPS.clearinghouseReply. */
  capBytes?: number;
}

/**
 * Sends JSON to Stedi (or GETs) under the retry policy; `read` turns a 200/400 answer into an attempt
 * outcome. Network errors are retryable; the budget's abort is a 504.
 */
export async function callStedi<T>(
  connection: StediConnection,
  path: string,
  body: ((attemptNo: number) => string) | undefined,
  read: (answer: HttpAnswer) => Attempt<T>,
  tuning: StediRetryTuning = {},
  exchange: StediExchange = {},
): Promise<StediCall<T>> {
  if (!connection.apiKey) return { result: fail(missingKey()), meta: { attempts: 0, latencyMs: 0 } };
  const apiKey = connection.apiKey;
  const url = `${connection.baseUrl.replace(/\/+$/, '')}${path}`;
  let last: HttpAnswer | undefined;

  const { outcome, attempts, elapsedMs } = await withRetry<T>(
    async (signal, attemptNo, _remainingMs, clock) => {
      last = undefined;
      const request: RequestInit = {
        method: exchange.method ?? 'POST',
        headers: {
          Authorization: apiKey,
          ...(body ? { 'Content-Type': 'application/json' } : {}),
          Accept: 'application/json',
          ...(connection.idempotencyKey ? { 'Idempotency-Key': connection.idempotencyKey } : {}),
        },
        ...(body ? { body: body(attemptNo) } : {}),
      };
      const answer = await fetchCapped(url, request, signal, exchange.capBytes ?? BODY_CAPS.clearinghouseReply);
      if (!answer.ok) return answer.attempt;
      last = answer.value;
      return classifyStatus<T>(answer.value, clock.now()) ?? read(answer.value);
    },
    { ...tuning, budgetMs: connection.budgetMs },
  );

  const meta: StediCallMeta = { attempts, latencyMs: elapsedMs };
  if (last) {
    meta.httpStatus = last.status;
    const traceId = TRACE_HEADERS.map((name) => last!.headers.get(name)).find((value) => value);
    if (traceId) meta.traceId = traceId;
  }
  return { result: outcome, meta };
}

export interface RawX12Request extends StediConnection {
  /** The 270; a function gets the attempt number so a retry can carry fresh control numbers. */
  x12: string | ((attemptNo: number) => string);
}

/**
 * Sends a 270 to Stedi's raw X12 endpoint and returns the reply's `x12` (a 271 or a 999), whether
 * Stedi answered 200 or 400, with `read`'s reading of it. A reply `read` calls retryable gets one
 * more attempt; if no retry happens that reply (and its reading) is still returned, so the caller
 * answers from the payer's own reply without reading it again.
 */
export function postRawX12<R>(request: RawX12Request, readReply: ReadRawX12<R>, tuning?: StediRetryTuning): Promise<StediCall<RawX12Reply<R>>> {
  const { x12 } = request;
  const body = (attemptNo: number): string => JSON.stringify({ x12: typeof x12 === 'function' ? x12(attemptNo) : x12 });
  const read = (answer: HttpAnswer): Attempt<RawX12Reply<R>> => {
    const parsed = parseJson(answer.text);
    if (!parsed.ok || !isJsonObject(parsed.value)) return fail(unreadable('not a JSON object'));
    const reply = parsed.value.x12;
    if (typeof reply !== 'string' || reply.trim() === '') return fail(unreadable('no x12 field'));
    const { reading, retryable } = readReply(reply);
    const value: RawX12Reply<R> = { x12: reply, httpStatus: answer.status, reading };
    if (retryable) {
      return { retryable: true, error: serviceError('PAYER_UNAVAILABLE'), final: ok(value) };
    }
    return ok(value);
  };
  return callStedi(request, RAW_X12_PATH, body, read, tuning);
}

export interface CobCallRequest extends StediConnection {
  /** The Stedi COB request body (lib/cob/request.ts builds it). */
  request: unknown;
}

/**
 * Sends a COB check to Stedi. A 200 or 400 with a JSON object body is returned as is for the COB
 * mapper (payer AAA errors come in `errors` on either), with `read`'s reading of it. A reply `read`
 * calls retryable gets one more attempt; if no retry happens that reply (and its reading) is still
 * returned, so the caller answers from it without reading it again.
 */
export function postCob<R>(call: CobCallRequest, readReply: ReadCob<R>, tuning?: StediRetryTuning): Promise<StediCall<CobReply<R>>> {
  const json = JSON.stringify(call.request);
  const read = (answer: HttpAnswer): Attempt<CobReply<R>> => {
    const parsed = parseJson(answer.text);
    if (!parsed.ok || !isJsonObject(parsed.value)) return fail(unreadable('not a JSON object'));
    const { reading, retryable } = readReply(answer.status, parsed.value);
    const value: CobReply<R> = { httpStatus: answer.status, body: parsed.value, reading };
    if (retryable) {
      return { retryable: true, error: serviceError('PAYER_UNAVAILABLE'), final: ok(value) };
    }
    return ok(value);
  };
  return callStedi(call, COB_PATH, () => json, read, tuning);
}
