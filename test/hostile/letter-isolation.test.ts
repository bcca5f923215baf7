import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readProcedureNotes } from '../../lib/letter/intake/input.js';
import { tinyObjectsPdf } from '../fixtures/letter/hostile-pdfs.js';

/**
 * While a letter's notes are parsed, the process keeps answering (docs/security.md#parsing-in-isolation):
 * pdf-lib and pdf.js run in a worker thread, so a file that costs them seconds of CPU (190,000 tiny
 * objects) does not hold the main thread. Proven by order of events, not by a clock: a health
 * request sent after the parse started is answered before the parse ends.
 */

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((_req, res) => res.end('{"status":"ok"}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('parsing in isolation', () => {
  it('answers a health request sent while a costly PDF is being parsed, before the parse ends', async () => {
    const file = tinyObjectsPdf().toString('base64');
    const events: string[] = [];
    let health: Promise<unknown> = Promise.resolve();
    const parse = readProcedureNotes(file, {
      onParsing: () => {
        events.push('parsing');
        health = fetch(url).then(async (res) => events.push(`health ${res.status} ${await res.text()}`));
      },
    }).then((result) => events.push(result.ok ? 'parsed' : `refused: ${result.error.message}`));
    await parse;
    await health;
    expect(events.slice(0, 2)).toEqual(['parsing', 'health 200 {"status":"ok"}']);
    expect(events).toHaveLength(3);
  });

  it('refuses a file the libraries could not finish within the CPU deadline as too complex to read safely', async () => {
    // The deadline is reached at the first sample after the worker has the file: a parse that never ends, as far as the deadline knows.
    let sampled = 0;
    const result = await readProcedureNotes(tinyObjectsPdf(1_000).toString('base64'), { cpuMs: () => (sampled++ === 0 ? 0 : 1e9) });
    expect(result).toMatchObject({ ok: false, error: { status: 400, code: 'INVALID_FILE', message: 'the PDF is too complex to read safely' } });
  });
});
