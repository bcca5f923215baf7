import { createServer, type Server } from 'node:http';
import { clearinghouseFor } from '../support/clearinghouse.js';
import { systemClock } from '../../lib/config/clock.js';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startClearinghouseSandbox, COB_ROUTE, type ClearinghouseSandbox } from '../../infra/dev/sandbox/clearinghouse.js';
import type { LocalEnvironment } from '../../infra/dev/local/environment.js';
import { readConfig } from '../../lib/config/index.js';
import { eligibilityRoute } from '../../lib/eligibility/route.js';
import type { Enrollment } from '../../lib/enrollment/types.js';
import { apiHandler } from '../../lib/http/api-handler.js';
import type { Runtime } from '../../lib/runtime/index.js';
import { apiEvent, invoke, MOCK_SET_1, SANDBOX_GARCIA } from '../support/events.js';

/**
 * Idempotency keys never freeze what a repeat could fix (issue #21): a transient COB failure inside
 * an eligibility answer, a malformed key reported as the header it is, a replayed error naming the
 * request that is answered now. Upstreams are loopback servers; the store is the local dynalite.
 */

const ENROLLED: Enrollment = { providerId: 'P-1', clientId: 'acme', npi: '1234567893', organizationName: 'Clinic', status: 'active' };
const ROUTE = 'POST /api/eligibility/v1';

let environment: LocalEnvironment;
let sandbox: ClearinghouseSandbox;
/** The clearinghouse with its COB check down (503): eligibility passes through to the sandbox. */
let cobDown: Server;
let cobDownUrl: string;
let cobDownCalls = 0;
let n = 0;
const freshKey = () => `hardening-${Date.now()}-${n++}`;

beforeAll(async () => {
  const { startLocalEnvironment } = await import('../support/local-environment.js');
  environment = await startLocalEnvironment(process.env);
  sandbox = await startClearinghouseSandbox({ apiKey: 'k' });
  cobDown = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.url === COB_ROUTE) {
      cobDownCalls += 1;
      res.writeHead(503, { 'content-type': 'application/json' });
      return void res.end('{"message":"Service Unavailable"}');
    }
    const upstream = await fetch(`${sandbox.url}${req.url}`, {
      method: 'POST',
      headers: { authorization: String(req.headers.authorization), 'content-type': 'application/json' },
      body: Buffer.concat(chunks),
    });
    res.writeHead(upstream.status, { 'content-type': 'application/json' });
    res.end(await upstream.text());
  });
  await new Promise<void>((resolve) => cobDown.listen(0, '127.0.0.1', resolve));
  cobDownUrl = `http://127.0.0.1:${(cobDown.address() as AddressInfo).port}`;
}, 30_000);

afterAll(async () => {
  cobDown?.closeAllConnections();
  await new Promise((resolve) => cobDown?.close(resolve));
  await sandbox?.close();
  await environment?.close();
});

function eligibility(stediBaseUrl: string) {
  const runtime: Runtime = {
    config: { ...readConfig({}), stediBaseUrl },
    enrollments: async () => ({ get: async (id) => (id === ENROLLED.providerId ? ENROLLED : undefined), put: async () => undefined }),
    clearinghouse: clearinghouseFor(stediBaseUrl, 'k'),
    clock: systemClock,
  };
  return apiHandler('eligibility', 'eligibility', eligibilityRoute(runtime), { idempotencyTable: process.env.IDEMPOTENCY_TABLE! });
}

const keyed = (body: unknown, key: string) => apiEvent(ROUTE, body, { clientId: 'acme', headers: { 'Idempotency-Key': key } });

describe('an eligibility answer whose COB part failed on an outage', () => {
  it('is answered (200, the COB part says why) but not stored: the repeat runs again and can get the COB answer', async () => {
    const handler = eligibility(cobDownUrl);
    const body = { ...SANDBOX_GARCIA, providerId: 'P-1', runCobCheck: true };
    const key = freshKey();
    const x12Before = sandbox.stats.rawX12Calls;
    const cobBefore = cobDownCalls;
    const first = await invoke(handler, keyed(body, key));
    expect(first.status).toBe(200);
    expect(first.body.cob).toMatchObject({ code: 'PAYER_UNAVAILABLE' });
    const second = await invoke(handler, keyed(body, key));
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(sandbox.stats.rawX12Calls - x12Before).toBe(2);
    expect(cobDownCalls - cobBefore).toBe(4); // one attempt and one retry per request
  });

  it('a healthy COB part is stored and replayed as before', async () => {
    const handler = eligibility(sandbox.url);
    const body = { ...SANDBOX_GARCIA, providerId: 'P-1', runCobCheck: true };
    const key = freshKey();
    const first = await invoke(handler, keyed(body, key));
    expect(first.body.cob).toHaveProperty('cobCode');
    const second = await invoke(handler, keyed(body, key));
    expect([second.status, second.headers['idempotent-replayed'], second.body]).toEqual([200, 'true', first.body]);
  });
});

describe('a malformed Idempotency-Key', () => {
  it('is a 400 whose message names the header, not the body', async () => {
    const reply = await invoke(eligibility(sandbox.url), keyed(MOCK_SET_1, 'has space'));
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('INVALID_REQUEST');
    expect(reply.body.message).toContain('Idempotency-Key header');
    expect(reply.body.message).not.toMatch(/body/i);
    expect(reply.body.errors).toEqual([{ field: 'Idempotency-Key', message: expect.stringContaining('visible ASCII') }]);
  });
});

describe('a replayed error', () => {
  it('keeps the stored status and body but names the current request, in the body and the header', async () => {
    const handler = eligibility(sandbox.url);
    const key = freshKey();
    const body = { ...SANDBOX_GARCIA, providerId: 'NOT-ENROLLED' };
    const first = await invoke(handler, keyed(body, key));
    const secondEvent = keyed(body, key);
    const second = await invoke(handler, secondEvent);
    expect(first.status).toBe(403);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.headers['x-request-id']).toBe(secondEvent.requestContext.requestId);
    expect(second.body).toEqual({ ...first.body, requestId: secondEvent.requestContext.requestId });
  });
});
