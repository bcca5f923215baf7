import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { apiHandler } from '../../lib/http/api-handler.js';
import { log } from '../../lib/logging/index.js';
import { logCapture } from '../support/log-capture.js';
import { apiEvent, invoke, MOCK_SET_1 } from '../support/events.js';

/** One structured access line per request, carrying the route's own (patient-free) fields. */

const capture = logCapture();
beforeEach(() => capture.start());
afterEach(() => capture.stop());
const records = capture.records;

describe('access log', () => {
  it('a mock eligibility request writes exactly one line with route, status, latency, mock and payer id', async () => {
    const { handler } = await import('../../functions/eligibility/index.js');
    const event = apiEvent('POST /api/eligibility/v1', MOCK_SET_1);
    await invoke(handler, event);
    const written = records();
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      level: 'INFO',
      message: 'request',
      requestId: event.requestContext.requestId,
      route: 'eligibility',
      status: 200,
      mock: true,
      payerId: 'PAYER001',
      latencyMs: expect.any(Number),
    });
  });

  it('an error line carries the code, and the route fields survive a failing outcome', async () => {
    const failing = apiHandler('probe', 'eligibility', async () => ({
      ok: false,
      error: { status: 500, body: { message: 'Mock request not found' } },
      log: { mock: true, payerId: 'PAYER009' },
    }));
    await invoke(failing, apiEvent('POST /api/eligibility/v1', MOCK_SET_1));
    await invoke(failing, apiEvent('POST /api/eligibility/v1', { ...MOCK_SET_1, extra: 1 }));
    const [mockMiss, invalid] = records();
    expect(mockMiss).toMatchObject({ route: 'probe', status: 500, mock: true, payerId: 'PAYER009' });
    expect(mockMiss).not.toHaveProperty('code');
    expect(invalid).toMatchObject({ route: 'probe', status: 400, code: 'INVALID_REQUEST' });
  });

  it('keeps each request id on its own lines when requests interleave (one async scope per invocation)', async () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const slow = apiHandler('interleave', 'eligibility', async ({ body }) => {
      // Requests log at several awaits, in an order that differs from the order they started in.
      const delay = body.patientFirstName.length % 5;
      for (let step = 0; step < 3; step++) {
        await sleep(delay * 3 + step);
        log.info('step', { route: `interleave-${body.patientFirstName}` });
      }
      return { ok: true, body: {} };
    });
    const events = Array.from({ length: 40 }, (_, i) =>
      apiEvent('POST /api/eligibility/v1', { ...MOCK_SET_1, patientFirstName: `P${'x'.repeat(i % 20)}y${'z'.repeat(Math.floor(i / 20))}` }),
    );
    const replies = await Promise.all(events.map((event) => invoke(slow, event)));
    const idOf = new Map(
      events.map((event, i) => [
        `interleave-${(JSON.parse(event.body!) as { patientFirstName: string }).patientFirstName}`,
        replies[i]!.headers['x-request-id'],
      ]),
    );
    const steps = records().filter((record) => record.message === 'step');
    expect(steps).toHaveLength(120);
    for (const step of steps) expect(step.requestId).toBe(idOf.get(step.route as string));
    // The access line of each request carries its own id too.
    const access = records().filter((record) => record.message === 'request');
    expect(new Set(access.map((record) => record.requestId))).toEqual(new Set(replies.map((reply) => reply.headers['x-request-id'])));
  });

  it("the catch-all logs with its own request id, not a previous request's", async () => {
    const notFound = (await import('../../functions/not-found/index.js')).handler;
    const first = await invoke(notFound as never, {
      httpMethod: 'GET',
      path: '/nowhere',
      headers: { 'X-Request-Id': 'first-id' },
      requestContext: { requestId: 'gw-1' },
    });
    const second = await invoke(notFound as never, { httpMethod: 'GET', path: '/elsewhere', headers: {}, requestContext: { requestId: 'gw-2' } });
    const lines = records().filter((record) => record.route === 'not-found');
    expect(lines.map((record) => record.requestId)).toEqual([first.headers['x-request-id'], second.headers['x-request-id']]);
    expect(lines[1]!.requestId).toBe('gw-2');
  });
});
