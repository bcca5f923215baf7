/**
 * The Stedi adapter of the clearinghouse port (lib/runtime/clearinghouse.ts, docs/architecture.md#ports-and-adapters):
 * eligibility as raw X12, the COB check and the payer search, each with the key fetched when the call
 * is made (a missing key is 500 CONFIGURATION_ERROR without any call). The built-in sandbox is a
 * loopback Stedi, so it is this same adapter with another base URL. Written against its own types
 * (this folder ranks below the domain); where ./runtime wires it, the compiler checks it fits the port.
 */
import { systemClock } from '../config/clock.js';
import type { Result } from '../errors/index.js';
import { getDiscovery, postDiscovery } from './stedi-discovery.js';
import { searchStediPayers, type StediPayerPage, type StediPayerSearch } from './stedi-payers.js';
import { postCob, postRawX12, type ReadCob, type ReadRawX12, type StediCall, type StediRetryTuning } from './stedi.js';

/**
 * Stedi's Medicare number lookup payers (docs/finding-coverage.md#medicare-number): with the SSN,
 * and without it (then the 270 carries the state, with a stand-in city as Stedi asks).
 */
export const MBI_LOOKUP_PAYERS = { withSsn: 'MBILU', withoutSsn: 'MBILUNOSSN' } as const;

export interface StediSettings {
  baseUrl: string;
  /** Stedi's insurance discovery host (STEDI_DISCOVERY_BASE_URL); default `baseUrl`. */
  discoveryBaseUrl?: string;
  /** Read when a call is made (Secrets Manager or a variable, cached there). */
  apiKey: () => Promise<Result<string>>;
  /** Every attempt and wait of one eligibility or COB call (docs/api.md#upstreams). */
  budgetMs: number;
  /** A directory lookup stands in front of a paid check: it gets a shorter budget of its own. */
  payerSearchBudgetMs: number;
  /** Whether this is the built-in sandbox (logged with each call). */
  sandbox: boolean;
  /** The retry policy's clock and waits (the runtime's clock; tests shorten the waits). */
  retry?: StediRetryTuning;
}

type Meta = StediCall<unknown>['meta'] & { upstream: string };
type Call<T> = { result: Result<T>; meta: Meta };

/** The clearinghouse port's calls, made to Stedi. */
export function stediClearinghouse(settings: StediSettings) {
  const clock = settings.retry?.clock ?? systemClock;
  const discoveryUrl = settings.discoveryBaseUrl ?? settings.baseUrl;
  const connection = (apiKey: string, idempotencyKey: string | undefined) => ({
    baseUrl: settings.baseUrl,
    apiKey,
    budgetMs: settings.budgetMs,
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });
  async function withKey<T>(upstream: string, call: (apiKey: string) => Promise<StediCall<T>>): Promise<Call<T>> {
    const key = await settings.apiKey();
    if (!key.ok) return { result: key, meta: { upstream, attempts: 0, latencyMs: 0 } };
    const { result, meta } = await call(key.value);
    return { result, meta: { upstream, ...meta } };
  }

  return {
    sandbox: settings.sandbox,
    eligibility: <R>(request: { x12: (attemptNo: number) => string; idempotencyKey?: string }, read: ReadRawX12<R>) =>
      withKey('stedi-raw-x12', (apiKey) => postRawX12({ ...connection(apiKey, request.idempotencyKey), x12: request.x12 }, read, settings.retry)),
    coordinationOfBenefits: <R>(request: { body: unknown; idempotencyKey?: string }, read: ReadCob<R>) =>
      withKey('stedi-cob', (apiKey) => postCob({ ...connection(apiKey, request.idempotencyKey), request: request.body }, read, settings.retry)),
    discover: (request: { body: unknown; idempotencyKey?: string }) =>
      withKey('stedi-discovery', (apiKey) =>
        postDiscovery({ ...connection(apiKey, request.idempotencyKey), baseUrl: discoveryUrl }, request.body, settings.retry),
      ),
    discoveryResult: (upstreamId: string) =>
      withKey('stedi-discovery-result', (apiKey) => getDiscovery({ ...connection(apiKey, undefined), baseUrl: discoveryUrl }, upstreamId, settings.retry)),
    lookupMbi: <R>(request: { withSsn: boolean; x12: (payerId: string, attemptNo: number) => string; idempotencyKey?: string }, read: ReadRawX12<R>) => {
      const payerId = request.withSsn ? MBI_LOOKUP_PAYERS.withSsn : MBI_LOOKUP_PAYERS.withoutSsn;
      return withKey('stedi-mbi-lookup', (apiKey) =>
        postRawX12({ ...connection(apiKey, request.idempotencyKey), x12: (attemptNo: number) => request.x12(payerId, attemptNo) }, read, settings.retry),
      );
    },
    searchPayers: (search: StediPayerSearch): Promise<Call<StediPayerPage>> =>
      withKey('stedi-payers', async (apiKey) => {
        const started = clock.now();
        const call = await searchStediPayers({ baseUrl: settings.baseUrl, apiKey, timeoutMs: settings.payerSearchBudgetMs }, search, settings.retry);
        const meta = { attempts: call.attempts, latencyMs: clock.now() - started, ...(call.traceId ? { traceId: call.traceId } : {}) };
        return { result: call.result, meta };
      }),
  };
}
