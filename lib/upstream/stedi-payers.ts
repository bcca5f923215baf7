/**
 * Stedi's Payers API, search endpoint (docs/api.md#payer-directory): `GET /payers/search` with
 * `query`, the transaction filters (`eligibilityCheck`, `coordinationOfBenefits` = `SUPPORTED`),
 * `pageSize` and `pageToken`. The answer is `{items: [{payer: {...}, score}], nextPageToken?}`; an
 * item that is the payer record itself is read too. Base URL, key and time budget come from the
 * caller; HTTP outcomes are classified as for the other Stedi endpoints (./stedi.ts), under the
 * shared retry policy. Nothing here logs.
 */
import { fail, ok, serviceError, type Result } from '../errors/index.js';
import { isJsonObject, type JsonObject } from './json.js';
import { withRetry, type Attempt, type RetryOptions } from './retry.js';
import { BODY_CAPS } from './body.js';
import { classifyStatus, fetchCapped, parseJson, TRACE_HEADERS, type HttpAnswer } from './stedi.js';

/** How the search endpoint is named in error messages. */
const DIRECTORY = 'The payer directory';

const PAYER_SEARCH_PATH = '/payers/search';

type StediSupport = 'SUPPORTED' | 'NOT_SUPPORTED' | 'ENROLLMENT_REQUIRED';

/** The fields of a Stedi payer record this service reads. */
export interface StediPayerRecord {
  stediId?: string;
  displayName: string;
  primaryPayerId: string;
  aliases: string[];
  names?: string[];
  coverageTypes?: string[];
  operatingStates?: string[];
  transactionSupport?: { eligibilityCheck?: StediSupport; coordinationOfBenefits?: StediSupport } & Record<string, unknown>;
}

export interface StediPayerSearch {
  query?: string;
  eligibilityCheck?: 'SUPPORTED';
  coordinationOfBenefits?: 'SUPPORTED';
  pageSize?: number;
  pageToken?: string;
}

export interface StediPayerPage {
  items: StediPayerRecord[];
  nextPageToken?: string;
}

export interface StediPayersConnection {
  baseUrl: string;
  apiKey: string | undefined;
  /** Whole budget for the attempt and its one retry. */
  timeoutMs: number;
}

const SUPPORT_VALUES: readonly string[] = ['SUPPORTED', 'NOT_SUPPORTED', 'ENROLLMENT_REQUIRED'];
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** One record, or undefined when it lacks the name or id every payer has. */
export function readPayerRecord(value: unknown): StediPayerRecord | undefined {
  const record = isJsonObject(value) && isJsonObject(value.payer) ? value.payer : value;
  if (!isJsonObject(record)) return undefined;
  const { displayName, primaryPayerId } = record;
  if (typeof displayName !== 'string' || typeof primaryPayerId !== 'string' || primaryPayerId.trim() === '') return undefined;
  const payer: StediPayerRecord = { displayName, primaryPayerId, aliases: strings(record.aliases) };
  if (typeof record.stediId === 'string') payer.stediId = record.stediId;
  if (Array.isArray(record.names)) payer.names = strings(record.names);
  if (Array.isArray(record.coverageTypes)) payer.coverageTypes = strings(record.coverageTypes);
  if (Array.isArray(record.operatingStates)) payer.operatingStates = strings(record.operatingStates);
  if (isJsonObject(record.transactionSupport)) payer.transactionSupport = supportOf(record.transactionSupport);
  return payer;
}

function supportOf(support: JsonObject): NonNullable<StediPayerRecord['transactionSupport']> {
  const read = (value: unknown): StediSupport | undefined =>
    typeof value === 'string' && SUPPORT_VALUES.includes(value) ? (value as StediSupport) : undefined;
  const out: NonNullable<StediPayerRecord['transactionSupport']> = {};
  const eligibility = read(support.eligibilityCheck);
  const cob = read(support.coordinationOfBenefits);
  if (eligibility) out.eligibilityCheck = eligibility;
  if (cob) out.coordinationOfBenefits = cob;
  return out;
}

function searchUrl(baseUrl: string, search: StediPayerSearch): string {
  const params = new URLSearchParams();
  if (search.query) params.set('query', search.query);
  if (search.eligibilityCheck) params.set('eligibilityCheck', search.eligibilityCheck);
  if (search.coordinationOfBenefits) params.set('coordinationOfBenefits', search.coordinationOfBenefits);
  if (search.pageSize !== undefined) params.set('pageSize', String(search.pageSize));
  if (search.pageToken) params.set('pageToken', search.pageToken);
  const query = params.toString();
  return `${baseUrl.replace(/\/+$/, '')}${PAYER_SEARCH_PATH}${query ? `?${query}` : ''}`;
}

function readPage(answer: HttpAnswer): Attempt<StediPayerPage> {
  if (answer.status === 400) {
    return fail(
      serviceError('INVALID_REQUEST', { message: 'The payer directory refused these search parameters (an old pageToken, or a query it cannot read)' }),
    );
  }
  const parsed = parseJson(answer.text);
  if (!parsed.ok || !isJsonObject(parsed.value) || !Array.isArray(parsed.value.items)) {
    return fail(serviceError('UPSTREAM_ERROR', { message: `${DIRECTORY} answer could not be read` }));
  }
  const items = parsed.value.items.map(readPayerRecord).filter((p): p is StediPayerRecord => p !== undefined);
  const token = parsed.value.nextPageToken;
  return ok(typeof token === 'string' && token !== '' ? { items, nextPageToken: token } : { items });
}

export interface PayerSearchCall {
  result: Result<StediPayerPage>;
  attempts: number;
  traceId?: string;
}

/** Searches Stedi's payer directory; a missing key is CONFIGURATION_ERROR without any call. */
export async function searchStediPayers(
  connection: StediPayersConnection,
  search: StediPayerSearch,
  tuning: Omit<RetryOptions, 'budgetMs'> = {},
): Promise<PayerSearchCall> {
  const apiKey = connection.apiKey;
  if (!apiKey) {
    return { result: fail(serviceError('CONFIGURATION_ERROR', { message: 'The clearinghouse API key (STEDI_API_KEY) is not configured' })), attempts: 0 };
  }
  const url = searchUrl(connection.baseUrl, search);
  let traceId: string | undefined;
  const { outcome, attempts } = await withRetry<StediPayerPage>(
    async (signal, _attemptNo, _remainingMs, clock) => {
      const fetched = await fetchCapped(
        url,
        { method: 'GET', headers: { Authorization: apiKey, Accept: 'application/json' } },
        signal,
        BODY_CAPS.payerSearch,
        DIRECTORY,
      );
      if (!fetched.ok) return fetched.attempt;
      const answer = fetched.value;
      traceId = TRACE_HEADERS.map((name) => answer.headers.get(name)).find((value) => value) ?? undefined;
      return classifyStatus<StediPayerPage>(answer, clock.now()) ?? readPage(answer);
    },
    { ...tuning, budgetMs: connection.timeoutMs },
  );
  return traceId ? { result: outcome, attempts, traceId } : { result: outcome, attempts };
}
