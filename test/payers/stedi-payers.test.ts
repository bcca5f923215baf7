import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import { listen } from '../../infra/dev/listen.js';
import { searchStediPayers } from '../../lib/upstream/stedi-payers.js';

/** The Payers API client against a loopback server that plays Stedi's answers. */

let server: Server;
let url: string;
let seen: { url: string; authorization?: string }[] = [];
let answers: { status: number; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
    const answer = answers.shift() ?? { status: 500, body: '{}' };
    res.writeHead(answer.status, { 'content-type': 'application/json', 'x-amzn-requestid': 'trace-1' });
    res.end(answer.body);
  });
  url = await listen(server, { port: 0 });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const ITEM = {
  payer: {
    stediId: 'HGJLR',
    displayName: 'Cigna',
    primaryPayerId: '62308',
    aliases: ['62308'],
    transactionSupport: { eligibilityCheck: 'SUPPORTED', claimStatus: 'SUPPORTED' },
  },
  score: 12.5,
};
const fast = { sleep: async () => undefined };
const run = (script: { status: number; body: string }[], search = {}) => {
  seen = [];
  answers = [...script];
  return searchStediPayers({ baseUrl: `${url}/2024-04-01/`, apiKey: 'key-1', timeoutMs: 5_000 }, search, fast);
};

describe('Stedi payer search client', () => {
  it('sends the search as query parameters with the key, and reads items and the next page token', async () => {
    const call = await run([{ status: 200, body: JSON.stringify({ items: [ITEM, { payer: { displayName: 'no id' } }], nextPageToken: 'p2' }) }], {
      query: 'cigna health',
      eligibilityCheck: 'SUPPORTED',
      pageSize: 5,
      pageToken: 'p1',
    });
    expect(seen).toEqual([{ url: '/2024-04-01/payers/search?query=cigna+health&eligibilityCheck=SUPPORTED&pageSize=5&pageToken=p1', authorization: 'key-1' }]);
    expect(call).toEqual({
      result: {
        ok: true,
        value: {
          items: [
            { stediId: 'HGJLR', displayName: 'Cigna', primaryPayerId: '62308', aliases: ['62308'], transactionSupport: { eligibilityCheck: 'SUPPORTED' } },
          ],
          nextPageToken: 'p2',
        },
      },
      attempts: 1,
      traceId: 'trace-1',
    });
  });

  it('retries once after a 5xx, and reports PAYER_UNAVAILABLE when both fail', async () => {
    const retried = await run([
      { status: 503, body: '{}' },
      { status: 200, body: JSON.stringify({ items: [ITEM] }) },
    ]);
    expect([retried.attempts, retried.result.ok]).toEqual([2, true]);
    const down = await run([
      { status: 500, body: '{}' },
      { status: 500, body: '{}' },
    ]);
    expect([down.attempts, down.result.ok === false && down.result.error.code]).toEqual([2, 'PAYER_UNAVAILABLE']);
  });

  it('classifies a rejected key, a refused search and an unreadable answer without retrying', async () => {
    const rejected = await run([{ status: 401, body: '{}' }]);
    expect([rejected.attempts, rejected.result.ok === false && rejected.result.error.code]).toEqual([1, 'CONFIGURATION_ERROR']);
    const refused = await run([{ status: 400, body: '{"message":"bad token"}' }]);
    expect(refused.result.ok === false && refused.result.error.code).toBe('INVALID_REQUEST');
    const unreadable = await run([{ status: 200, body: '<html>' }]);
    expect([unreadable.attempts, unreadable.result.ok === false && unreadable.result.error.code]).toEqual([1, 'UPSTREAM_ERROR']);
  });

  it('makes no call without a key', async () => {
    seen = [];
    const call = await searchStediPayers({ baseUrl: url, apiKey: undefined, timeoutMs: 1_000 }, {});
    expect([call.attempts, call.result.ok === false && call.result.error.code, seen.length]).toEqual([0, 'CONFIGURATION_ERROR', 0]);
  });
});
