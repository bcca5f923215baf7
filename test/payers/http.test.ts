import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ok } from '../../lib/errors/index.js';
import { payerDirectory } from '../../lib/payers/directory.js';
import { payersHandler } from '../../lib/payers/http.js';
import type { StediPayerRecord, StediPayerSearch } from '../../lib/upstream/stedi-payers.js';
import { logCapture } from '../support/log-capture.js';
import { type GatewayRequest, gatewayEvent, invoke } from '../support/events.js';
import { expectPostRoutesRefusal, REPEATED_IDENTITY_HEADERS, TOKEN } from '../support/gateway-events.js';

/**
 * The payer function on API Gateway events, in process: the shared pipeline's answers (request id,
 * no-store, CORS, the refusal of a repeated identity header, the 500 of an unexpected exception) and
 * its access-log line, as every other route gives them (docs/runtime.md#the-http-pipeline).
 */

const AETNA: StediPayerRecord = {
  displayName: 'Aetna',
  primaryPayerId: '60054',
  aliases: ['60054'],
  stediId: 'HPQRS',
  coverageTypes: ['medical'],
  transactionSupport: { eligibilityCheck: 'SUPPORTED', coordinationOfBenefits: 'SUPPORTED' },
};

let searches: StediPayerSearch[] = [];
const payers = payersHandler(
  payerDirectory({
    search: async (search) => {
      searches.push(search);
      return ok({ items: [AETNA] });
    },
    clock: { now: () => 0 },
  }),
);
const broken = payersHandler(
  payerDirectory({ search: async () => Promise.reject(new TypeError('socket closed for patient John Doe')), clock: { now: () => 0 } }),
);

const GATEWAY_ID = 'gw-payers-1';

/** A GET as API Gateway hands it to the function; `rawHeaders` may name a header twice. */
const get = (path: string, resource: string, rawHeaders: [string, string][], query = ''): GatewayRequest => ({
  method: 'GET',
  path,
  resource,
  rawHeaders,
  query,
  requestId: GATEWAY_ID,
});
const event = (path: string, resource: string, rawHeaders: [string, string][], query = '') => gatewayEvent(get(path, resource, rawHeaders, query));

const searchRequest = (rawHeaders: [string, string][] = [TOKEN], query = 'q=aetna&pageSize=2') => get('/api/payers', '/api/payers', rawHeaders, query);
const search = (rawHeaders?: [string, string][], query?: string) => gatewayEvent(searchRequest(rawHeaders, query));

const capture = logCapture();
beforeEach(() => {
  searches = [];
  capture.start();
});
afterEach(() => {
  capture.stop();
  delete process.env.CORS_ALLOWED_ORIGINS;
});

describe('GET /api/payers and GET /api/payers/{payerId} through the pipeline', () => {
  it('searches with the query string and looks up by the path parameter, with the request id and no-store', async () => {
    const found = await invoke(payers, search([TOKEN, ['X-Request-Id', 'payers-req-1']]));
    expect(found.status).toBe(200);
    expect(found.body.payers.map((payer: { payerId: string }) => payer.payerId)).toEqual(['60054']);
    expect(searches).toEqual([{ query: 'aetna', pageSize: 2 }]);
    expect(found.headers).toEqual({ 'content-type': 'application/json', 'cache-control': 'no-store', 'x-request-id': 'payers-req-1' });

    const one = await invoke(payers, event('/api/payers/HPQRS', '/api/payers/{payerId}', [TOKEN]));
    expect([one.status, one.body.payerId, one.headers['x-request-id']]).toEqual([200, '60054', GATEWAY_ID]);
    expect(capture.records().map(({ route, status, payerId }) => ({ route, status, payerId }))).toEqual([
      { route: 'payers', status: 200, payerId: undefined },
      { route: 'payers', status: 200, payerId: '60054' },
    ]);
  });

  it('adds the CORS headers for an allowed origin, errors included', async () => {
    process.env.CORS_ALLOWED_ORIGINS = 'https://app.example.org';
    const allowed = await invoke(payers, search([TOKEN, ['Origin', 'https://app.example.org']], 'pageSize=500'));
    expect(allowed.status).toBe(400);
    expect(allowed.headers).toMatchObject({
      'access-control-allow-origin': 'https://app.example.org',
      'access-control-expose-headers': 'X-Request-Id, Retry-After, Idempotent-Replayed',
      vary: 'Origin',
    });
    const other = await invoke(payers, search([TOKEN, ['Origin', 'https://elsewhere.example.org']]));
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(other.headers.vary).toBe('Origin');
  });

  it('turns an unexpected exception into the 500 INTERNAL_ERROR body, its code on the access line', async () => {
    // Error lines go to stderr: kept here to check the 'unhandled exception' line like the access line.
    const errors: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: unknown) => errors.push(String(chunk)) > 0) as typeof process.stderr.write;
    let reply: Awaited<ReturnType<typeof invoke>>;
    try {
      reply = await invoke(broken, search());
    } finally {
      process.stderr.write = write;
    }
    const [unhandled] = errors.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(unhandled).toMatchObject({ level: 'ERROR', message: 'unhandled exception', route: 'payers', errorName: 'TypeError', requestId: GATEWAY_ID });
    expect(errors.join('')).not.toContain('John Doe');
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual({ message: 'Internal server error', code: 'INTERNAL_ERROR', requestId: GATEWAY_ID });
    expect(reply.headers['x-request-id']).toBe(GATEWAY_ID);
    const [line] = capture.records().filter((record) => record.message === 'request');
    expect(line).toMatchObject({ route: 'payers', status: 500, code: 'INTERNAL_ERROR', requestId: GATEWAY_ID, latencyMs: expect.any(Number) });
    expect(JSON.stringify(capture.records())).not.toContain('John Doe');
  });
});

describe('a repeated identity header on GET /api/payers', () => {
  it.each(REPEATED_IDENTITY_HEADERS)(
    '%s twice is the 400 every route gives, under the gateway id, and the directory is not asked',
    async (header, rawHeaders) => {
      const request = searchRequest(rawHeaders);
      await expectPostRoutesRefusal(await invoke(payers, gatewayEvent(request)), header, request, [['Content-Type', 'application/json']]);
      expect(searches).toEqual([]);
      const [line] = capture.records().filter((record) => record.route === 'payers');
      expect(line).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
    },
  );
});
