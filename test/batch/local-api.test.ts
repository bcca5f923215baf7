import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { Webhook } from 'standardwebhooks';
import { sha256Hex } from '../../lib/auth/tokens.js';
import { CSV_COLUMNS } from '../../lib/batch/csv-output.js';
import { startLocalEnvironment, type LocalEnvironment } from '../support/local-environment.js';
import { startLocalServer, type LocalServer } from '../../infra/dev/local/server.js';
import { listen } from '../../infra/dev/listen.js';
import { MOCK_SET_1, SANDBOX_RIVERA } from '../support/events.js';
import { responseProblems } from '../support/response-schemas.js';

/**
 * Batch as `npm start` runs it: the batch function behind the local gateway, the in-process queue
 * driving the very worker and webhook functions Lambda runs, dynalite, the sandbox clearinghouse.
 * SQS seconds are scaled down (1 s = 10 ms), so the webhook's 1-minute retry comes in 600 ms.
 */

const SECRET = `whsec_${Buffer.from('batch-webhook-test-secret-32-bytes!').toString('base64')}`;
const MOCK = MOCK_SET_1;
const REAL = SANDBOX_RIVERA;

let environment: LocalEnvironment;
let server: LocalServer;
let receiver: Server;
let receiverUrl: string;
const deliveries: { headers: IncomingHttpHeaders; body: string; answered: number }[] = [];

async function call(path: string, init: { method?: string; body?: string; contentType?: string; token?: string; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${init.token ?? 'local-dev-token'}`,
      ...(init.body === undefined ? {} : { 'content-type': init.contentType ?? 'application/json' }),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString('utf8');
  return {
    status: response.status,
    headers: response.headers,
    bytes,
    text,
    body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined,
  };
}
const finished = async (batchId: string) => {
  for (;;) {
    const { body } = await call(`/api/eligibility/batch/v1/${batchId}`);
    if (['COMPLETED', 'COMPLETED_WITH_ERRORS', 'CANCELLED'].includes(body.status)) return body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const savedEnv = { ...process.env };

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'batch-local-'));
  const tokensFile = join(dir, 'tokens.json');
  writeFileSync(tokensFile, JSON.stringify({ clients: [{ clientId: 'local', tokenSha256: sha256Hex('local-file-token-1'), webhookSecret: SECRET }] }));
  process.env.API_TOKENS = 'local=local-dev-token,other=other-dev-token';
  process.env.API_TOKENS_FILE = tokensFile;
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      // Down for the first delivery: the retry must come.
      const answered = deliveries.length === 0 ? 503 : 204;
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered });
      res.writeHead(answered).end();
    });
  });
  receiverUrl = `${await listen(receiver, { port: 0, host: '127.0.0.1' })}/hooks/batch`;
  environment = await startLocalEnvironment(process.env, { batch: { msPerSecond: 10 } });
  server = await startLocalServer({ port: 0 });
});
afterAll(async () => {
  // The local environment writes its settings into process.env: leave it as found for the next file.
  process.env = { ...savedEnv };
  await server?.close();
  await environment?.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('batch eligibility on the local server', () => {
  it('submits JSON, runs every item, answers items as JSON and CSV, and delivers a signed webhook after the receiver came back', async () => {
    const submitted = await call('/api/eligibility/batch/v1', {
      method: 'POST',
      body: JSON.stringify({
        name: 'Tuesday',
        callbackUrl: receiverUrl,
        items: [
          { ...MOCK, clientRef: 'a-1' },
          { ...REAL, clientRef: 'a-2' },
          { ...REAL, patientDOB: '02-30-1983', clientRef: 'a-3' },
        ],
      }),
    });
    expect(submitted.status).toBe(202);
    expect(submitted.body).toMatchObject({ name: 'Tuesday', status: 'PENDING', totalCount: 3, invalidCount: 1 });
    // Each batch answer matches its declared schema (lib/validation/responses/batch.ts), answers and errors included.
    expect(responseProblems('batchAccepted', submitted.body)).toEqual([]);
    expect(submitted.headers.get('location')).toBe(`/api/eligibility/batch/v1/${submitted.body.batchId}`);
    const batchId = submitted.body.batchId as string;
    expect(batchId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const status = await finished(batchId);
    expect(status).toMatchObject({
      status: 'COMPLETED_WITH_ERRORS',
      counts: { completed: 2, failed: 1, pending: 0, inProgress: 0 },
      outcomes: { active: 1, unknown: 1 },
    });
    expect(responseProblems('batchStatus', status)).toEqual([]);

    const page = await call(`/api/eligibility/batch/v1/${batchId}/items`);
    expect(page.status).toBe(200);
    expect(responseProblems('batchItemPage', page.body)).toEqual([]);
    expect(page.body.items.map((i: any) => [i.index, i.clientRef, i.state, i.status])).toEqual([
      [0, 'a-1', 'COMPLETED', 200],
      [1, 'a-2', 'COMPLETED', 200],
      [2, 'a-3', 'FAILED', 400],
    ]);
    const realtime = await call('/api/eligibility/v1', { method: 'POST', body: JSON.stringify(REAL) });
    const strip = (value: unknown) => JSON.stringify(value).replace(/"checkedAt":"[^"]+"/, '');
    expect(strip(page.body.items[1].answer)).toBe(strip(realtime.body));
    expect(page.body.items[2].error).toMatchObject({ code: 'INVALID_REQUEST', errors: [{ field: 'patientDOB' }] });

    const csv = await call(`/api/eligibility/batch/v1/${batchId}/items`, { headers: { accept: 'text/csv' } });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = csv.text.slice(1).split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(CSV_COLUMNS.join(','));
    expect(lines).toHaveLength(4);
    const row = lines[2]!.split(',');
    const column = (name: string) => row[CSV_COLUMNS.indexOf(name)];
    expect([column('clientRef'), column('state'), column('coverageStatus')]).toEqual(['a-2', 'COMPLETED', 'Active']);
    expect(column('inNetwork.individual.copay')).toBe(realtime.body.inNetwork.individual.copay);
    expect(lines[3]).toContain('INVALID_REQUEST');

    // First delivery refused (503), the retry 1 (scaled) minute later accepted; same webhook-id, each verifiable.
    while (deliveries.length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(deliveries.map((d) => d.answered)).toEqual([503, 204]);
    expect(deliveries[0]!.headers['webhook-id']).toBe(deliveries[1]!.headers['webhook-id']);
    for (const delivery of deliveries) {
      const verified = new Webhook(SECRET).verify(delivery.body, delivery.headers as Record<string, string>) as Record<string, any>;
      expect(verified).toMatchObject({
        type: 'eligibility.batch.completed',
        data: { batchId, status: 'COMPLETED_WITH_ERRORS', counts: { completed: 2, failed: 1 } },
      });
      expect(delivery.body).not.toMatch(/Carlos|Rivera|PPO500005|1983/);
    }
    expect(() =>
      new Webhook(`whsec_${Buffer.from('another-secret-of-32-bytes-long!!').toString('base64')}`).verify(
        deliveries[1]!.body,
        deliveries[1]!.headers as Record<string, string>,
      ),
    ).toThrow();
  });

  it('gives the estimate totals as CSV columns and writes caller text a spreadsheet would run as text', async () => {
    const estimate = {
      lines: [
        { serviceTypeCode: '30', amount: 250 },
        { serviceTypeCode: '98', amount: 1200.5 },
      ],
    };
    const hostile = ['=HYPERLINK("http://evil.example","x")', '+1+2', '-3', '@SUM(A1)', '-'];
    const submitted = await call('/api/eligibility/batch/v1', {
      method: 'POST',
      body: JSON.stringify({
        items: [
          { ...MOCK, estimate, clientRef: hostile[0] },
          { ...MOCK, clientRef: hostile[1] },
          { ...MOCK, estimate: { network: 'out', lines: [{ amount: 80 }] }, clientRef: hostile[2] },
          { ...MOCK, patientDOB: 'nope', clientRef: hostile[3] },
          { ...MOCK, clientRef: hostile[4] },
        ],
      }),
    });
    expect(submitted.status).toBe(202);
    const batchId = submitted.body.batchId as string;
    await finished(batchId);
    const realtime = await call('/api/eligibility/v1', { method: 'POST', body: JSON.stringify({ ...MOCK, estimate }) });
    const outOfNetwork = await call('/api/eligibility/v1', {
      method: 'POST',
      body: JSON.stringify({ ...MOCK, estimate: { network: 'out', lines: [{ amount: 80 }] } }),
    });
    expect(realtime.body.estimate.patientOwes).toMatch(/^\$/);

    const csv = await call(`/api/eligibility/batch/v1/${batchId}/items`, { headers: { accept: 'text/csv' } });
    const [header, ...rows] = parse(csv.text.slice(1), { relax_column_count: false }) as string[][];
    expect(header).toEqual(CSV_COLUMNS);
    const cell = (row: number, name: string) => rows[row]![CSV_COLUMNS.indexOf(name)];
    expect([cell(0, 'estimate.patientOwes'), cell(0, 'estimate.planPays'), cell(0, 'estimate.complete')]).toEqual([
      realtime.body.estimate.patientOwes,
      realtime.body.estimate.planPays,
      String(realtime.body.estimate.complete),
    ]);
    expect([cell(2, 'estimate.patientOwes'), cell(2, 'estimate.planPays')]).toEqual([
      outOfNetwork.body.estimate.patientOwes,
      outOfNetwork.body.estimate.planPays,
    ]);
    // Asked for no estimate: the columns are there, the cells empty.
    expect([cell(1, 'estimate.patientOwes'), cell(1, 'estimate.planPays'), cell(1, 'estimate.complete')]).toEqual(['', '', '']);
    // Formula-looking caller text gets a leading apostrophe; the figures stay as the JSON has them.
    expect(rows.map((_, i) => cell(i, 'clientRef'))).toEqual(hostile.map((ref) => `'${ref}`));
    expect(cell(0, 'inNetwork.individual.copay')).toBe(realtime.body.inNetwork.individual.copay);
    expect(cell(3, 'errorCode')).toBe('INVALID_REQUEST');
    for (const row of rows) for (const value of row) expect(value).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('writes results that speak for themselves: the fields refused, the AAA reasons, a multi-line clientRef intact', async () => {
    const KEVIN = { ...REAL, patientFirstName: 'Kevin', patientLastName: 'Wright', patientDOB: '07-07-1990', patientMemberId: 'ERR720072' };
    const multiLine = 'appt 08:00\nroom 2\tbay B\r\nDr. "Ng", 2nd';
    const submitted = await call('/api/eligibility/batch/v1', {
      method: 'POST',
      body: JSON.stringify({
        items: [
          { ...MOCK, clientRef: multiLine },
          { ...MOCK, patientDOB: '02-30-1983', serviceTypeCodes: ['ZZZ'], clientRef: 'bad-fields' },
          { ...KEVIN, clientRef: 'rejected' },
          { ...MOCK, clientRef: 'nul\u0000inside' },
        ],
      }),
    });
    expect(submitted.status).toBe(202);
    expect(submitted.body.invalidCount).toBe(2);
    const batchId = submitted.body.batchId as string;
    await finished(batchId);
    const page = await call(`/api/eligibility/batch/v1/${batchId}/items`);
    expect(page.body.items.map((i: any) => [i.clientRef, i.state])).toEqual([
      [multiLine, 'COMPLETED'],
      ['bad-fields', 'FAILED'],
      ['rejected', 'FAILED'],
      [undefined, 'FAILED'],
    ]);
    expect(page.body.items[3].error.errors).toEqual([{ field: 'clientRef', message: expect.stringMatching(/control characters/) }]);

    const csv = await call(`/api/eligibility/batch/v1/${batchId}/items`, { headers: { accept: 'text/csv' } });
    expect(csv.text).toContain('"appt 08:00\nroom 2\tbay B\r\nDr. ""Ng"", 2nd"');
    const [header, ...rows] = parse(csv.text.slice(1)) as string[][];
    expect(header).toEqual(CSV_COLUMNS);
    const cell = (row: number, name: string) => rows[row]![CSV_COLUMNS.indexOf(name)];
    expect(rows).toHaveLength(4);
    expect(cell(0, 'clientRef')).toBe(multiLine);
    const [dob, code] = page.body.items[1].error.errors;
    expect(cell(1, 'errorMessage')).toBe(`patientDOB: ${dob.message}; serviceTypeCodes[0]: ${code.message}`);
    expect(cell(1, 'errorMessage')).toMatch(/^patientDOB: must be a real calendar date in the form MM-DD-YYYY/);
    expect([cell(2, 'errorCode'), cell(2, 'errorMessage')]).toEqual(['PAYER_REJECTED', 'AAA 72 Invalid/Missing Subscriber/Insured ID (loop 2100C)']);
    expect(cell(3, 'errorMessage')).toMatch(/^clientRef: /);
  });

  it('reads CSV (quotes, BOM, CRLF, ; lists) with name and callbackUrl as query parameters', async () => {
    const csv =
      '\uFEFFclientRef,patientFirstName,patientLastName,patientDOB,patientMemberId,dateOfCoverage,payerId,providerId,serviceTypeCodes,mockRequest\r\n' +
      '"ref, with comma",John,Doe,01-01-1980,123456789,01-01-2025,PAYER001,PROVIDER001,30;98,true\r\n' +
      'ref-2,John,Doe,01-01-1980,123456789,01-01-2025,PAYER001,PROVIDER001,ZZZ,true\r\n';
    const submitted = await call('/api/eligibility/batch/v1?name=From%20CSV', { method: 'POST', body: csv, contentType: 'text/csv' });
    expect(submitted.status).toBe(202);
    expect(submitted.body).toMatchObject({ name: 'From CSV', totalCount: 2, invalidCount: 1 });
    await finished(submitted.body.batchId);
    const page = await call(`/api/eligibility/batch/v1/${submitted.body.batchId}/items`);
    expect(page.body.items.map((i: any) => [i.clientRef, i.state])).toEqual([
      ['ref, with comma', 'COMPLETED'],
      ['ref-2', 'FAILED'],
    ]);
    expect(page.body.items[1].error.errors[0].field).toMatch(/^serviceTypeCodes/);
  });

  it('replays a repeated Idempotency-Key, refuses bad batches, and hides other clients’ batches', async () => {
    const body = JSON.stringify({ items: [MOCK] });
    const first = await call('/api/eligibility/batch/v1', { method: 'POST', body, headers: { 'idempotency-key': 'night-run-1' } });
    const again = await call('/api/eligibility/batch/v1', { method: 'POST', body, headers: { 'idempotency-key': 'night-run-1' } });
    expect(again.status).toBe(202);
    expect(again.body.batchId).toBe(first.body.batchId);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));

    expect((await call('/api/eligibility/batch/v1', { method: 'POST', body: JSON.stringify({ items: [] }) })).body).toMatchObject({
      code: 'INVALID_REQUEST',
      errors: [{ field: 'items' }],
    });
    expect((await call('/api/eligibility/batch/v1', { method: 'POST', body: 'hello', contentType: 'text/plain' })).status).toBe(415);
    expect(
      (await call('/api/eligibility/batch/v1', { method: 'POST', body: JSON.stringify({ items: [MOCK], callbackUrl: 'http://example.com/hook' }) })).body,
    ).toMatchObject({ code: 'INVALID_REQUEST', errors: [{ field: 'callbackUrl' }] });

    const theirs = await call(`/api/eligibility/batch/v1/${first.body.batchId}`, { token: 'other-dev-token' });
    const unknown = await call('/api/eligibility/batch/v1/00000000-0000-4000-8000-000000000000', { token: 'other-dev-token' });
    expect(theirs.status).toBe(404);
    const { requestId: _a, ...theirBody } = theirs.body;
    const { requestId: _b, ...unknownBody } = unknown.body;
    expect(theirBody).toEqual(unknownBody);
    expect((await call(`/api/eligibility/batch/v1/${first.body.batchId}`, { method: 'DELETE', token: 'other-dev-token' })).status).toBe(404);
    expect((await call(`/api/eligibility/batch/v1/${first.body.batchId}`, { method: 'PUT' })).status).toBe(405);
  });
});
