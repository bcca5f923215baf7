import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { clearinghouseFor } from '../support/clearinghouse.js';
import { systemClock } from '../../lib/config/clock.js';
import { eligibilityCheck } from '../../lib/batch/engine.js';
import { controlNumberOfKey } from '../../lib/x12/build270.js';
import { dynamoBatchStore } from '../../lib/batch/adapters/dynamodb.js';
import type { ItemQueue, WebhookQueue } from '../../lib/batch/queue.js';
import { batchItems, batchStatus, cancelBatch, MAX_PAGE_BYTES, submitBatch, type BatchRouteDeps } from '../../lib/batch/routes.js';
import type { BatchStore } from '../../lib/batch/store.js';
import { DEFAULT_BATCH_SETTINGS, emptyCounts, emptyOutcomes, type ItemMessage } from '../../lib/batch/types.js';
import { processItem, type WorkerDeps } from '../../lib/batch/worker.js';
import { readConfig } from '../../lib/config/index.js';
import { eligibilityRoute } from '../../lib/eligibility/route.js';
import type { Enrollment } from '../../lib/enrollment/types.js';
import { answerOf, apiHandler, type ApiEvent } from '../../lib/http/api-handler.js';
import type { Runtime } from '../../lib/runtime/index.js';
import { createBatchTable } from '../../infra/dev/local/batch.js';
import { localDynamoClient, startDynalite, type LocalDynamo } from '../../infra/dev/local/enrollments.js';
import { startClearinghouseSandbox, type ClearinghouseSandbox } from '../../infra/dev/sandbox/clearinghouse.js';
import { startUpstreamGate, type UpstreamGate } from './upstream-gate.js';
import { MOCK_SET_1, SANDBOX_RIVERA } from '../support/events.js';

/**
 * The batch engine over dynalite and the sandbox clearinghouse (behind a gate that records each
 * call's Idempotency-Key): submit, the worker step, counters, back-off, duplicates, a crashed
 * attempt, cancel, the pending limit, paging and client isolation. Time is an injected clock.
 */

const MOCK = MOCK_SET_1;
const REAL = { ...SANDBOX_RIVERA, providerId: 'PROVIDER-A' };
const ENROLLMENT: Enrollment = { providerId: 'PROVIDER-A', clientId: 'clinic', npi: '1234567893', organizationName: 'Clinic', status: 'active' } as Enrollment;

let dynamo: LocalDynamo;
let sandbox: ClearinghouseSandbox;
let gate: UpstreamGate;
let store: BatchStore;
let runtime: Runtime;
let clock: number;
let sent: { clientId: string; messages: ItemMessage[] }[];
let webhooks: string[];
let ids: number;

// A fan-out is sent on as its items' messages, as the worker does (lib/batch/worker-handler.ts).
const items: ItemQueue = {
  sendItems: async (clientId, messages) => void sent.push({ clientId, messages }),
  sendFanOuts: async (clientId, fanOuts) => {
    const messages = fanOuts.flatMap(({ batchId, indexes }) => indexes.map((index) => ({ batchId, index })));
    if (messages.length > 0) sent.push({ clientId, messages });
  },
};
const webhookQueue: WebhookQueue = { sendWebhook: async (batchId) => void webhooks.push(batchId) };
const routeDeps = (over: Partial<BatchRouteDeps> = {}): BatchRouteDeps => ({
  store,
  items,
  webhooks: webhookQueue,
  settings: DEFAULT_BATCH_SETTINGS,
  allowLoopbackHttp: false,
  webhookSecretsFor: async () => [`whsec_${Buffer.from('engine-test-secret-of-32-bytes!!').toString('base64')}`],
  clock: { now: () => clock },
  newId: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
  ...over,
});
const workerDeps = (): WorkerDeps => ({
  store,
  check: eligibilityCheck(runtime),
  webhooks: webhookQueue,
  settings: DEFAULT_BATCH_SETTINGS,
  clock: { now: () => clock },
});
const submit = async (body: unknown, clientId = 'clinic', over: Partial<BatchRouteDeps> = {}) => {
  const result = await submitBatch(routeDeps(over), { body, clientId });
  if (!result.ok) throw new Error(result.error.code);
  return result.value;
};
const drain = async () => {
  for (const { messages } of sent.splice(0)) for (const message of messages) await processItem(workerDeps(), message);
};
const itemsOf = async (batchId: string, clientId = 'clinic', query: Record<string, string> = {}) => {
  const answer = await batchItems({ store }, clientId, batchId, { pageSize: '500', ...query });
  if (!answer.ok) throw new Error('items failed');
  return answer.body as { items: Record<string, any>[]; nextPageToken?: string };
};
const statusOf = async (batchId: string) => {
  const answer = await batchStatus({ store }, 'clinic', batchId);
  if (!answer.ok) throw new Error('status failed');
  return answer.body as Record<string, any>;
};

beforeAll(async () => {
  dynamo = await startDynalite();
  const table = await createBatchTable(dynamo.endpoint, 'batches');
  store = dynamoBatchStore(localDynamoClient(dynamo.endpoint), table);
  sandbox = await startClearinghouseSandbox({ apiKey: 'k' });
  gate = await startUpstreamGate(sandbox.url);
  runtime = {
    config: readConfig({ STEDI_BASE_URL: gate.url, UPSTREAM_BUDGET_MS: '3000' }),
    enrollments: async () => ({ get: async (id) => (id === ENROLLMENT.providerId ? ENROLLMENT : undefined), put: async () => undefined }),
    clearinghouse: clearinghouseFor(gate.url, 'k', { budgetMs: 3_000 }),
    clock: systemClock,
  };
});
afterAll(async () => {
  await gate.close();
  await sandbox.close();
  await dynamo.close();
});
beforeEach(() => {
  clock = Date.parse('2026-11-24T20:00:00Z');
  sent = [];
  webhooks = [];
  ids ??= 0;
  gate.throttled = false;
  gate.failing = undefined;
  gate.delayMs = 0;
});

describe('a batch runs each item through the real-time route', () => {
  it('keeps invalid items as FAILED with the real-time 400, runs the rest, counts outcomes and finishes once', async () => {
    const submitted = await submit({
      name: 'Tuesday',
      callbackUrl: 'https://clinic.example/hooks',
      items: [
        { ...MOCK, clientRef: 'appt-1' },
        { ...REAL, clientRef: 'appt-2' },
        { patientFirstName: 'X', clientRef: 'appt-3' },
      ],
    });
    expect(submitted.status).toBe(202);
    expect(submitted.body).toMatchObject({ name: 'Tuesday', status: 'PENDING', totalCount: 3, invalidCount: 1 });
    const batchId = submitted.body.batchId as string;
    expect(submitted.location).toBe(`/api/eligibility/batch/v1/${batchId}`);
    expect(sent).toEqual([
      {
        clientId: 'clinic',
        messages: [
          { batchId, index: 0 },
          { batchId, index: 1 },
        ],
      },
    ]);

    await drain();
    const status = await statusOf(batchId);
    expect(status).toMatchObject({
      status: 'COMPLETED_WITH_ERRORS',
      totalCount: 3,
      counts: { pending: 0, inProgress: 0, completed: 2, failed: 1, cancelled: 0 },
      outcomes: { active: 1, inactive: 0, unknown: 1 },
    });
    expect(status.completedAt).toBe(new Date(clock).toISOString());
    expect(webhooks).toEqual([batchId]);

    // Byte for byte what POST /api/eligibility/v1 answers for the same body (same request id).
    const realtime = apiHandler('eligibility', 'eligibility', eligibilityRoute(runtime));
    const listed = (await itemsOf(batchId)).items;
    expect(listed.map((item) => [item.clientRef, item.state, item.status, item.attempts])).toEqual([
      ['appt-1', 'COMPLETED', 200, 1],
      ['appt-2', 'COMPLETED', 200, 1],
      ['appt-3', 'FAILED', 400, 0],
    ]);
    for (const [index, body] of [
      [0, MOCK],
      [1, REAL],
      [2, { patientFirstName: 'X' }],
    ] as const) {
      const requestId = `${batchId}-${index}`;
      const event = {
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', 'x-request-id': requestId },
        requestContext: { requestId, authorizer: { clientId: 'clinic' } },
      } as unknown as ApiEvent;
      const answer = await realtime(event, {} as never);
      const item = listed[index]!;
      const mine = JSON.stringify(item.answer ?? item.error);
      // checkedAt is when each 271 arrived: the one field two calls cannot share.
      const strip = (text: string) => text.replace(/"checkedAt":"[^"]+"/, '"checkedAt":"-"');
      expect(item.status).toBe(answer.statusCode);
      expect(strip(mine)).toBe(strip(answer.body));
    }
  });

  it('makes no upstream call for a duplicate delivery of a finished item', async () => {
    const { body } = await submit({ items: [REAL] });
    const message = sent[0]!.messages[0]!;
    await drain();
    const calls = gate.keys.length;
    expect(await processItem(workerDeps(), message)).toEqual({ kind: 'done' });
    expect(gate.keys.length).toBe(calls);
    expect((await statusOf(body.batchId as string)).counts.completed).toBe(1);
  });

  it('takes over an attempt whose worker died, with the same upstream Idempotency-Key, once its lease ran out', async () => {
    const { body } = await submit({ items: [REAL] });
    const batchId = body.batchId as string;
    const message = sent[0]!.messages[0]!;
    // A worker claimed it and died before answering.
    const claimed = await store.claim(batchId, 0, clock, DEFAULT_BATCH_SETTINGS.leaseMs);
    expect(claimed.kind).toBe('claimed');
    await store.bump(batchId, { pending: -1, inProgress: 1 }, new Date(clock).toISOString());
    // The redelivery while the lease holds goes back to the queue, with no call.
    const before = gate.keys.length;
    expect(await processItem(workerDeps(), message)).toEqual({ kind: 'retry', seconds: DEFAULT_BATCH_SETTINGS.leaseMs / 1000 });
    expect(gate.keys.length).toBe(before);
    clock += DEFAULT_BATCH_SETTINGS.leaseMs + 1;
    expect(await processItem(workerDeps(), message)).toEqual({ kind: 'done' });
    expect(gate.keys.slice(before)).toEqual([`${batchId}-0-1-270`]);
    expect(await statusOf(batchId)).toMatchObject({ status: 'COMPLETED', counts: { completed: 1, inProgress: 0, pending: 0 } });
  });

  it('backs off on a throttled clearinghouse (30 s doubling), loses nothing and uses a new key per attempt', async () => {
    const { body } = await submit({ items: [REAL] });
    const batchId = body.batchId as string;
    const message = sent[0]!.messages[0]!;
    gate.throttled = true;
    const before = gate.keys.length;
    expect(await processItem(workerDeps(), message)).toEqual({ kind: 'retry', seconds: 30 });
    expect(await statusOf(batchId)).toMatchObject({ status: 'IN_PROGRESS', counts: { pending: 1, inProgress: 0 } });
    clock += 30_000;
    expect(await processItem(workerDeps(), message)).toEqual({ kind: 'retry', seconds: 60 });
    gate.throttled = false;
    clock += 60_000;
    expect(await processItem(workerDeps(), message)).toEqual({ kind: 'done' });
    const keys = [...new Set(gate.keys.slice(before))];
    expect(keys).toEqual([`${batchId}-0-1-270`, `${batchId}-0-2-270`, `${batchId}-0-3-270`]);
    const [item] = (await itemsOf(batchId)).items;
    expect(item).toMatchObject({ state: 'COMPLETED', status: 200, attempts: 3 });
  });

  it('fails an item with its last error once the retry window is over', async () => {
    const { body } = await submit({ items: [REAL] });
    const batchId = body.batchId as string;
    const message = sent[0]!.messages[0]!;
    gate.throttled = true;
    expect((await processItem(workerDeps(), message)).kind).toBe('retry');
    clock += DEFAULT_BATCH_SETTINGS.retryHours * 3600_000;
    expect(await processItem(workerDeps(), message)).toEqual({ kind: 'done' });
    const [item] = (await itemsOf(batchId)).items;
    expect(item).toMatchObject({ state: 'FAILED', status: 503, error: { code: 'PAYER_UNAVAILABLE' } });
    expect((await statusOf(batchId)).status).toBe('COMPLETED_WITH_ERRORS');
  });

  it('cancels what has not started: no upstream call, items CANCELLED, final status once drained', async () => {
    const { body } = await submit({ callbackUrl: 'https://clinic.example/hooks', items: [REAL, REAL] });
    const batchId = body.batchId as string;
    const cancelled = await cancelBatch({ store, webhooks: webhookQueue, clock: { now: () => clock } }, 'clinic', batchId);
    expect(cancelled).toMatchObject({ ok: true, body: { status: 'CANCELLED', counts: { pending: 0, cancelled: 2 } } });
    const before = gate.keys.length;
    await drain();
    expect(gate.keys.length).toBe(before);
    expect((await itemsOf(batchId)).items.map((item) => item.state)).toEqual(['CANCELLED', 'CANCELLED']);
    expect(await statusOf(batchId)).toMatchObject({ status: 'CANCELLED', counts: { pending: 0, cancelled: 2 } });
    expect((await statusOf(batchId)).completedAt).toBeDefined();
    expect(webhooks).toEqual([batchId]);
  });

  it('answers the cancel of a batch whose items never started as final at once: CANCELLED with completedAt, one webhook', async () => {
    const { body } = await submit({ callbackUrl: 'https://clinic.example/hooks', items: [REAL, REAL, MOCK] });
    const batchId = body.batchId as string;
    const cancelled = await cancelBatch({ store, webhooks: webhookQueue, clock: { now: () => clock } }, 'clinic', batchId);
    expect(cancelled).toMatchObject({
      ok: true,
      body: { status: 'CANCELLED', completedAt: new Date(clock).toISOString(), counts: { pending: 0, cancelled: 3 } },
    });
    expect(webhooks).toEqual([batchId]);
    clock += 60_000;
    await drain();
    // Draining the cancelled items changes neither the finish time nor the webhook count.
    expect(await statusOf(batchId)).toMatchObject({
      status: 'CANCELLED',
      completedAt: new Date(clock - 60_000).toISOString(),
      counts: { pending: 0, cancelled: 3 },
    });
    expect(webhooks).toEqual([batchId]);
  });

  it('finishes a batch cancelled just as its last item finished (the cancel took the final status)', async () => {
    const { body } = await submit({ callbackUrl: 'https://clinic.example/hooks', items: [MOCK] });
    const batchId = body.batchId as string;
    // The last item finished and its counters reached zero, but the cancel read the batch before that.
    const claimed = await store.claim(batchId, 0, clock, DEFAULT_BATCH_SETTINGS.leaseMs);
    if (claimed.kind !== 'claimed') throw new Error('not claimed');
    await store.finish(batchId, 0, claimed.item.attempts, { state: 'COMPLETED', status: 200, answer: '{}', completedAt: new Date(clock).toISOString() });
    await store.bump(batchId, { pending: -1, completed: 1 }, new Date(clock).toISOString());
    const cancelled = await cancelBatch({ store, webhooks: webhookQueue, clock: { now: () => clock } }, 'clinic', batchId);
    expect(cancelled).toMatchObject({ ok: true, body: { status: 'CANCELLED', completedAt: new Date(clock).toISOString() } });
    expect(webhooks).toEqual([batchId]);
  });

  it('refuses a batch past the client’s unfinished items with 429 BATCH_LIMIT_EXCEEDED; mock items cost nothing', async () => {
    const settings = { ...DEFAULT_BATCH_SETTINGS, maxPendingItems: 2 };
    await submit({ items: [REAL, MOCK, MOCK, MOCK] }, 'limited', { settings });
    const refused = await submitBatch(routeDeps({ settings }), { body: { items: [REAL, REAL] }, clientId: 'limited' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'BATCH_LIMIT_EXCEEDED', status: 429, retryAfterSeconds: 60 } });
    await drain();
    expect((await submitBatch(routeDeps({ settings }), { body: { items: [REAL, REAL] }, clientId: 'limited' })).ok).toBe(true);
  });

  it('answers another client’s batch exactly like an unknown one', async () => {
    const { body } = await submit({ items: [MOCK] });
    const batchId = body.batchId as string;
    const theirs = await batchStatus({ store }, 'someone-else', batchId);
    const unknown = await batchStatus({ store }, 'clinic', '00000000-0000-4000-8000-999999999999');
    expect(theirs).toEqual(unknown);
    expect(theirs).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', status: 404 } });
    expect(await cancelBatch({ store, webhooks: webhookQueue, clock: { now: () => clock } }, 'someone-else', batchId)).toEqual(unknown);
    expect(await batchItems({ store }, 'someone-else', batchId, {})).toEqual(unknown);
  });

  it('pages items in index order and filters by state', async () => {
    const { body } = await submit({ items: [MOCK, { nope: true }, MOCK, { nope: true }, MOCK] });
    const batchId = body.batchId as string;
    await drain();
    const first = await itemsOf(batchId, 'clinic', { pageSize: '2' });
    expect(first.items.map((item) => item.index)).toEqual([0, 1]);
    const second = await itemsOf(batchId, 'clinic', { pageSize: '2', pageToken: first.nextPageToken! });
    expect(second.items.map((item) => item.index)).toEqual([2, 3]);
    const failed = await itemsOf(batchId, 'clinic', { state: 'FAILED' });
    expect(failed.items.map((item) => item.index)).toEqual([1, 3]);
    expect(await batchItems({ store }, 'clinic', batchId, { pageSize: '501', state: 'DONE' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_REQUEST', errors: [{ field: 'state' }, { field: 'pageSize' }] },
    });
  });
});

describe('an item’s calls: counted, keyed and admitted one by one', () => {
  const COB_PATH = '/coordination-of-benefits';
  const WITH_COB = { ...REAL, runCobCheck: true };

  it('makes an item’s 270 and its COB check one after the other, never two calls at once', async () => {
    const { body } = await submit({ items: [WITH_COB] });
    const batchId = body.batchId as string;
    // Each call is held a little at the clearinghouse, so two calls made together would overlap there.
    gate.delayMs = 40;
    gate.maxInFlight = 0;
    await drain();
    expect(gate.maxInFlight).toBe(1);
    const [item] = (await itemsOf(batchId)).items;
    expect(item).toMatchObject({ state: 'COMPLETED', status: 200 });
    expect(item!.answer.cob).toBeDefined();

    // Still byte for byte the real-time answer for the same body (the COB part last, where the route puts it).
    const realtime = apiHandler('eligibility', 'eligibility', eligibilityRoute(runtime));
    const requestId = `${batchId}-0`;
    const event = {
      body: JSON.stringify(WITH_COB),
      headers: { 'content-type': 'application/json', 'x-request-id': requestId },
      requestContext: { requestId, authorizer: { clientId: 'clinic' } },
    } as unknown as ApiEvent;
    const answer = await realtime(event, {} as never);
    const strip = (text: string) => text.replace(/"checkedAt":"[^"]+"/, '"checkedAt":"-"');
    expect(strip(JSON.stringify(item!.answer))).toBe(strip(answer.body));
  });

  it('gives each request kind its own key, and a repeat under a key sends the same bytes (270 and COB)', async () => {
    const { body } = await submit({ items: [WITH_COB] });
    const batchId = body.batchId as string;
    const before = gate.requests.length;
    const claimedAt = clock;
    await drain();
    const mine = gate.requests.slice(before);
    expect(mine.map((request) => request.key)).toEqual([`${batchId}-0-1-270`, `${batchId}-0-1-cob`]);
    const cob = mine.find((request) => request.path === COB_PATH)!;
    expect(JSON.parse(cob.body).controlNumber).toBe(String(controlNumberOfKey(`${batchId}-0-1-cob`)));
    expect(JSON.parse(mine[0]!.body).x12).toContain(`ST*270*${controlNumberOfKey(`${batchId}-0-1-270`)}*`);
    // The same attempt again, later and from a new worker (a takeover after a crash or a restart): the same bytes under each key.
    clock += 3 * 3600_000;
    const again = eligibilityCheck(runtime);
    await again({ body: WITH_COB, clientId: 'clinic', requestId: `${batchId}-0`, idempotencyKey: `${batchId}-0-1`, attemptAt: claimedAt });
    const repeat = gate.requests.slice(before + 2);
    expect(repeat).toEqual(mine);
  });

  it('retries an item whose COB part failed on an outage, with the item’s back-off, and never keeps it as final', async () => {
    const { body } = await submit({ items: [WITH_COB] });
    const batchId = body.batchId as string;
    const message = sent[0]!.messages[0]!;
    gate.failing = { path: COB_PATH, status: 503 };
    expect(await processItem(workerDeps(), message)).toEqual({ kind: 'retry', seconds: 30 });
    const [waiting] = (await itemsOf(batchId)).items;
    expect(waiting).toMatchObject({ state: 'PENDING', attempts: 1 });
    expect(waiting!.answer).toBeUndefined();
    gate.failing = undefined;
    clock += 30_000;
    expect(await processItem(workerDeps(), message)).toEqual({ kind: 'done' });
    const [item] = (await itemsOf(batchId)).items;
    expect(item).toMatchObject({ state: 'COMPLETED', status: 200, attempts: 2 });
    expect(item!.answer.cob.code).toBeUndefined();
    expect(item!.answer.cob.cobCode).toBeDefined();
  });

  it('keeps the COB outage as the item’s answer once the retry window is over', async () => {
    const { body } = await submit({ items: [WITH_COB] });
    const batchId = body.batchId as string;
    const message = sent[0]!.messages[0]!;
    gate.failing = { path: COB_PATH, status: 503 };
    expect((await processItem(workerDeps(), message)).kind).toBe('retry');
    clock += DEFAULT_BATCH_SETTINGS.retryHours * 3600_000;
    expect(await processItem(workerDeps(), message)).toEqual({ kind: 'done' });
    const [item] = (await itemsOf(batchId)).items;
    expect(item).toMatchObject({ state: 'COMPLETED', status: 200, answer: { cob: { code: 'PAYER_UNAVAILABLE' } } });
  });

  it('sends nothing for an item whose batch was cancelled after the worker read it', async () => {
    const { body } = await submit({ callbackUrl: 'https://clinic.example/hooks', items: [REAL] });
    const batchId = body.batchId as string;
    const message = sent[0]!.messages[0]!;
    // The cancel lands between the worker's read of the batch (not cancelled yet) and its claim.
    const racing: BatchStore = {
      ...store,
      async batchAndSubmitted(id, index) {
        const read = await store.batchAndSubmitted(id, index);
        const cancelled = await cancelBatch({ store, webhooks: webhookQueue, clock: { now: () => clock } }, 'clinic', batchId);
        expect(cancelled).toMatchObject({ ok: true, body: { status: 'CANCELLED' } });
        return read;
      },
    };
    const before = gate.keys.length;
    expect(await processItem({ ...workerDeps(), store: racing }, message)).toEqual({ kind: 'done' });
    expect(gate.keys.length).toBe(before);
    expect((await itemsOf(batchId)).items.map((item) => item.state)).toEqual(['CANCELLED']);
    const status = await statusOf(batchId);
    expect(status).toMatchObject({ status: 'CANCELLED', counts: { pending: 0, inProgress: 0, cancelled: 1 } });
    expect(status.completedAt).toBeDefined();
    expect(webhooks).toEqual([batchId]);
  });
});

describe('a results page of rich answers', () => {
  it('ends early, under 5 MiB and with a nextPageToken, instead of failing for its size', async () => {
    const batchId = '00000000-0000-4000-8000-00000000beef';
    const notice = 'x'.repeat(100_000);
    const createdAt = new Date(clock).toISOString();
    const count = 60;
    await store.create(
      {
        batchId,
        clientId: 'clinic',
        status: 'COMPLETED',
        totalCount: count,
        invalidCount: 0,
        counts: { ...emptyCounts(), completed: count },
        outcomes: emptyOutcomes(),
        createdAt,
        updatedAt: createdAt,
      },
      Array.from({ length: count }, (_, index) => ({
        batchId,
        index,
        state: 'COMPLETED' as const,
        attempts: 1,
        counted: false,
        status: 200,
        answer: JSON.stringify({ coverageStatus: 'Active', notices: [`${index}${notice}`] }),
        completedAt: createdAt,
      })),
    );
    const seen: number[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const outcome = await batchItems({ store }, 'clinic', batchId, { pageSize: '500', ...(pageToken ? { pageToken } : {}) });
      const { response } = answerOf(outcome, 'r');
      expect(response.statusCode).toBe(200);
      expect(Buffer.byteLength(response.body)).toBeLessThan(5 * 1024 * 1024);
      expect(Buffer.byteLength(response.body)).toBeLessThanOrEqual(MAX_PAGE_BYTES);
      const body = JSON.parse(response.body) as { items: { index: number }[]; nextPageToken?: string };
      seen.push(...body.items.map((item) => item.index));
      pageToken = body.nextPageToken;
      pages++;
    } while (pageToken);
    expect(pages).toBeGreaterThan(1);
    expect(seen).toEqual(Array.from({ length: count }, (_, i) => i));
  });
});
