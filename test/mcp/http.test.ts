import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mcpHandler } from '../../lib/mcp/http.js';
import { mcpTools } from '../../lib/mcp/tools.js';
import { logCapture } from '../support/log-capture.js';
import { type GatewayRequest, gatewayEvent, invoke } from '../support/events.js';
import { expectPostRoutesRefusal, REPEATED_IDENTITY_HEADERS, TOKEN } from '../support/gateway-events.js';

/**
 * POST /api/mcp on API Gateway events, in process: the shared pipeline around the SDK's transport
 * (docs/mcp.md#transport), so a repeated identity header gets the 400 every route gives, and the
 * access-log line is the pipeline's. The SDK client's own exchange is test/mcp/mcp-http.test.ts.
 */

let calls = 0;
const mcp = mcpHandler(
  mcpTools({
    eligibility: async () => ({ ok: true, body: {} }),
    cob: async () => ({ ok: true, body: {} }),
    searchPayers: async () => {
      calls += 1;
      return { ok: true, body: { payers: [] } };
    },
  }),
);

const GATEWAY_ID = 'gw-mcp-1';
const JSON_RPC: [string, string][] = [
  ['Content-Type', 'application/json'],
  ['Accept', 'application/json, text/event-stream'],
];
const CALL = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search_payers', arguments: { q: 'aetna' } } };

/** A POST as API Gateway hands it to the function; `rawHeaders` may name a header twice. */
const post = (path: string, rawHeaders: [string, string][], body: unknown = CALL): GatewayRequest => ({
  method: 'POST',
  path,
  rawHeaders,
  body,
  requestId: GATEWAY_ID,
});
const event = (path: string, rawHeaders: [string, string][], body?: unknown) => gatewayEvent(post(path, rawHeaders, body));

const capture = logCapture();
beforeEach(() => {
  calls = 0;
  capture.start();
});
afterEach(() => {
  capture.stop();
  delete process.env.CORS_ALLOWED_ORIGINS;
});
const accessLines = () => capture.records().filter((record) => record.message === 'request');

describe('POST /api/mcp through the pipeline', () => {
  it("answers the SDK's JSON-RPC reply with the request id, no-store and CORS, and one access line", async () => {
    process.env.CORS_ALLOWED_ORIGINS = 'https://agent.example.org';
    const reply = await invoke(mcp, event('/api/mcp', [TOKEN, ...JSON_RPC, ['X-Request-Id', 'mcp-1'], ['Origin', 'https://agent.example.org']]));
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ jsonrpc: '2.0', id: 7, result: { structuredContent: { payers: [] } } });
    expect(calls).toBe(1);
    expect(reply.headers).toMatchObject({
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'x-request-id': 'mcp-1',
      'access-control-allow-origin': 'https://agent.example.org',
      vary: 'Origin',
    });
    expect(accessLines()).toEqual([expect.objectContaining({ route: 'mcp', status: 200, requestId: 'mcp-1', latencyMs: expect.any(Number) })]);
    expect(accessLines()[0]).not.toHaveProperty('code');
  });

  it("keeps the API's own 415 and 400 bodies, their codes on the access line", async () => {
    const text = await invoke(mcp, event('/api/mcp', [TOKEN, ['Content-Type', 'text/plain']], 'hello'));
    expect([text.status, text.body.code, text.body.requestId]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE', GATEWAY_ID]);
    const broken = await invoke(mcp, event('/api/mcp', [TOKEN, ...JSON_RPC], '{"jsonrpc":'));
    expect([broken.status, broken.body.code]).toEqual([400, 'INVALID_JSON']);
    expect(calls).toBe(0);
    expect(accessLines().map(({ route, status, code }) => ({ route, status, code }))).toEqual([
      { route: 'mcp', status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
      { route: 'mcp', status: 400, code: 'INVALID_JSON' },
    ]);
  });

  it('takes no Idempotency-Key: a key is not read, and the call runs each time', async () => {
    const withKey = event('/api/mcp', [TOKEN, ...JSON_RPC, ['Idempotency-Key', ' not a valid key ']]);
    expect((await invoke(mcp, withKey)).status).toBe(200);
    expect((await invoke(mcp, withKey)).status).toBe(200);
    expect(calls).toBe(2);
  });
});

describe('a repeated identity header on POST /api/mcp', () => {
  it.each(REPEATED_IDENTITY_HEADERS)('%s twice is the 400 every route gives, under the gateway id, and no tool runs', async (header, rawHeaders) => {
    const request = post('/api/mcp', [...JSON_RPC, ...rawHeaders]);
    await expectPostRoutesRefusal(await invoke(mcp, gatewayEvent(request)), header, request);
    expect(calls).toBe(0);
    expect(accessLines().find((record) => record.route === 'mcp')).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
  });
});
