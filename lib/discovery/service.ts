/**
 * Starting and polling an insurance discovery (docs/finding-coverage.md#insurance-discovery). A start
 * is counted against the client's daily cap first (one atomic add: DISCOVERY_MAX_PER_DAY per UTC day,
 * 429 DISCOVERY_LIMIT_EXCEEDED with the seconds to the next UTC midnight), then sent upstream, then
 * stored under an id of our own (random, unguessable, scoped to the client) for 24 hours. A poll of a
 * PENDING discovery asks the clearinghouse again; once COMPLETE, the coverages are built once
 * (./coverages.ts) and stored, so later polls cost nothing upstream.
 */
import { randomUUID } from 'node:crypto';
import type { Enrollment } from '../enrollment/types.js';
import { fail, ok, serviceError, type Result } from '../errors/index.js';
import { log } from '../logging/index.js';
import type { Runtime } from '../runtime/index.js';
import type { DiscoveryRequest } from '../validation/schemas.js';
import { coveragesOf } from './coverages.js';
import { readStediDiscovery, stediDiscoveryRequest } from './from-stedi.js';
import { DISCOVERY_TTL_SECONDS, type DiscoveryRecord, type DiscoveryStore } from './store.js';
import type { DiscoveryAnswer, UpstreamDiscovery } from './types.js';

export interface DiscoveryDeps {
  runtime: Runtime;
  store: DiscoveryStore;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day of an instant, `YYYY-MM-DD`. */
export const utcDay = (nowMs: number): string => new Date(nowMs).toISOString().slice(0, 10);

/** Whole seconds (at least 1) from `nowMs` to the next UTC midnight, when the daily cap starts over. */
export const secondsToUtcMidnight = (nowMs: number): number => Math.max(1, Math.ceil((Math.floor(nowMs / DAY_MS + 1) * DAY_MS - nowMs) / 1000));

const answerOf = (record: DiscoveryRecord): DiscoveryAnswer => ({
  discoveryId: record.discoveryId,
  status: record.status,
  ...(record.status === 'COMPLETE' ? { coverages: record.coverages ?? [] } : {}),
});

/** The upstream call's log line (ids and timings only). */
function logCall(
  runtime: Runtime,
  what: string,
  meta: { upstream: string; attempts: number; latencyMs: number; traceId?: string },
  result: Result<unknown>,
  discoveryId?: string,
) {
  log.info(what, {
    upstream: meta.upstream,
    sandbox: runtime.clearinghouse.sandbox,
    attempts: meta.attempts,
    upstreamMs: Math.round(meta.latencyMs),
    ...(discoveryId ? { discoveryId } : {}),
    ...(meta.traceId ? { traceId: meta.traceId } : {}),
    ...(result.ok ? {} : { code: result.error.code }),
  });
}

/** The record moved to what the clearinghouse now says; coverages are built when it first says COMPLETE. */
async function settled(deps: DiscoveryDeps, record: DiscoveryRecord, upstream: UpstreamDiscovery, requestId: string): Promise<DiscoveryRecord> {
  if (upstream.status !== 'COMPLETE') return record;
  const coverages = await coveragesOf({ runtime: deps.runtime, clientId: record.clientId, requestId, request: record.request }, upstream.found);
  log.info('discovery complete', { discoveryId: record.discoveryId, coverages: coverages.length });
  return { ...record, status: 'COMPLETE', coverages };
}

/**
 * Counts, sends and stores one discovery for `clientId` (whose enrollment of the provider is checked
 * already). Idempotent replays never get here: the pipeline answers them from the stored answer.
 */
export async function startDiscovery(
  deps: DiscoveryDeps,
  clientId: string,
  request: DiscoveryRequest,
  enrollment: Enrollment,
  requestId: string,
): Promise<Result<DiscoveryAnswer>> {
  const { runtime, store } = deps;
  const now = runtime.clock.now();
  const dayEnds = now + secondsToUtcMidnight(now) * 1000;
  const counted = await store.countOne(clientId, utcDay(now), runtime.config.discoveryMaxPerDay, Math.ceil((dayEnds + DAY_MS) / 1000));
  if (!counted) {
    const retryAfterSeconds = secondsToUtcMidnight(now);
    const message = `This client has sent its ${runtime.config.discoveryMaxPerDay} insurance discoveries for today (DISCOVERY_MAX_PER_DAY); try again after midnight UTC`;
    return fail(serviceError('DISCOVERY_LIMIT_EXCEEDED', { message, retryAfterSeconds }));
  }

  const key = runtime.upstreamAttempt?.key;
  const call = await runtime.clearinghouse.discover({
    body: stediDiscoveryRequest(request, enrollment.npi),
    ...(key ? { idempotencyKey: `${key}-discovery` } : {}),
  });
  const discoveryId = randomUUID();
  logCall(runtime, 'discovery upstream', call.meta, call.result, discoveryId);
  if (!call.result.ok) return call.result;
  const upstream = readStediDiscovery(call.result.value.httpStatus, call.result.value.body);
  if (!upstream.ok) return upstream;

  const started: DiscoveryRecord = {
    discoveryId,
    clientId,
    upstreamId: upstream.value.upstreamId,
    status: 'PENDING',
    request,
    createdAt: new Date(now).toISOString(),
    expiresAt: Math.floor(now / 1000) + DISCOVERY_TTL_SECONDS,
  };
  const record = await settled(deps, started, upstream.value, requestId);
  await store.put(record);
  return ok(answerOf(record));
}

/** Our ids are UUIDs: anything else is unknown without a read (a 3,000-character id never reaches the table's key limit). */
const DISCOVERY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The client's discovery, asked again upstream while PENDING; another client's id is as unknown as a made-up one. */
export async function pollDiscovery(deps: DiscoveryDeps, clientId: string, discoveryId: string, requestId: string): Promise<Result<DiscoveryAnswer>> {
  const { runtime, store } = deps;
  const record = DISCOVERY_ID.test(discoveryId) ? await store.get(clientId, discoveryId.toLowerCase(), runtime.clock.now()) : undefined;
  if (!record) return fail(serviceError('NOT_FOUND', { message: 'No insurance discovery of yours has this id (results are kept for 24 hours)' }));
  if (record.status === 'COMPLETE') return ok(answerOf(record));

  const call = await runtime.clearinghouse.discoveryResult(record.upstreamId);
  logCall(runtime, 'discovery result upstream', call.meta, call.result, discoveryId);
  if (!call.result.ok) return call.result;
  const upstream = readStediDiscovery(call.result.value.httpStatus, call.result.value.body);
  if (!upstream.ok) return upstream;
  const next = await settled(deps, record, upstream.value, requestId);
  if (next !== record) await store.put(next);
  return ok(answerOf(next));
}
