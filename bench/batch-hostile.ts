/**
 * Batch work in proportion (docs/batch.md; not a test): what hostile or merely large batch requests cost
 * the local server, in CPU seconds (the whole process: gateway, batch function, in-process queue and
 * dynalite's thread) and resident memory added, each one request:
 *  - a 10,000-item JSON submit of real items (the clearinghouse holds their calls, so no worker runs);
 *  - a 30 KB body of 10,000 `{}` items;
 *  - a CSV of 1.4 million rows (about 4 MB);
 *  - `items?pageSize=1&state=PENDING` on the 10,000 `{}` items (none pending) and on the 10,000 real ones;
 *  - `items?pageSize=500` on 500 rich answers (about 25 KB each: together past the 5 MB an answer may have).
 * Targets (docs/batch.md): submit ≤ 2 s of CPU; a page by state ≤ 100 ms; the rich page a 200.
 * Run: node --import tsx bench/batch-hostile.ts  → prints and writes bench/results/batch-hostile.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startLocalEnvironment } from '../infra/dev/local/environment.js';
import { startLocalServer } from '../infra/dev/local/server.js';
import { startClearinghouseSandbox } from '../infra/dev/sandbox/clearinghouse.js';
import { logger } from '../lib/logging/index.js';
import { startUpstreamGate } from '../test/batch/upstream-gate.js';
import { SANDBOX_RIVERA } from '../test/support/events.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
logger.setLogLevel('SILENT');

export interface BatchHostileFigure {
  cpuSeconds: number;
  rssAddedMiB: number;
  status: number;
  note?: string;
}
export type BatchHostileReport = Record<string, BatchHostileFigure>;

const sandbox = await startClearinghouseSandbox({ apiKey: 'bench' });
const gate = await startUpstreamGate(sandbox.url);
process.env.STEDI_BASE_URL = gate.url;
process.env.STEDI_API_KEY = 'bench';
process.env.API_TOKENS = 'local=local-dev-token';
const environment = await startLocalEnvironment(process.env);
const server = await startLocalServer({ port: 0 });

const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
const rssMiB = () => process.memoryUsage().rss / 1048576;
const call = async (path: string, init: { method?: string; body?: string; type?: string } = {}) => {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: 'Bearer local-dev-token', 'content-type': init.type ?? 'application/json' },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const text = await response.text();
  return { status: response.status, text };
};
/** One request's CPU and memory: measured from just before it is sent to its last byte. */
async function measure(run: () => Promise<{ status: number; text: string }>, note?: (text: string) => string): Promise<BatchHostileFigure & { text: string }> {
  const cpu = cpuSeconds();
  const rss = rssMiB();
  const answer = await run();
  return {
    cpuSeconds: Math.round((cpuSeconds() - cpu) * 1000) / 1000,
    rssAddedMiB: Math.round((rssMiB() - rss) * 10) / 10,
    status: answer.status,
    text: answer.text,
    ...(note ? { note: note(answer.text) } : {}),
  };
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 3000));
const figure = ({ text: _text, ...rest }: BatchHostileFigure & { text: string }): BatchHostileFigure => rest;
const idOf = (text: string) => (JSON.parse(text) as { batchId: string }).batchId;

/** A rich answer of about 25 KB: a long benefit list, as a payer with many plan lines answers. */
const richAnswer = (index: number) =>
  JSON.stringify({
    coverageStatus: 'Active',
    message: 'Eligibility check successful',
    benefits: Array.from({ length: 120 }, (_, i) => ({
      serviceTypeCode: String(i),
      name: `Plan line ${index}-${i}`,
      amount: '$25.00',
      notes: 'x'.repeat(120),
    })),
  });

try {
  const report: BatchHostileReport = {};
  // Warm the functions (first imports) so the figures are the work, not module loading.
  await call('/api/eligibility/batch/v1', { method: 'POST', body: JSON.stringify({ items: [{ ...SANDBOX_RIVERA, mockRequest: true }] }) });

  gate.holding = true;
  const real = await measure(() =>
    call('/api/eligibility/batch/v1', {
      method: 'POST',
      body: JSON.stringify({ items: Array.from({ length: 10_000 }, (_, i) => ({ ...SANDBOX_RIVERA, clientRef: `r${i}` })) }),
    }),
  );
  report.submit10k = figure(real);
  // What a submit leaves to the queue's consumers (sending each item's message on) runs before the next figure.
  await settle();

  const emptyBody = JSON.stringify({ items: Array.from({ length: 10_000 }, () => ({})) });
  const empty = await measure(() => call('/api/eligibility/batch/v1', { method: 'POST', body: emptyBody }));
  report.submit10kEmptyItems = { ...figure(empty), note: `${Math.round(emptyBody.length / 1024)} KB body` };
  await settle();

  const csv = `clientRef\n${'x\n'.repeat(1_400_000)}`;
  report.csv1400kRows = {
    ...figure(await measure(() => call('/api/eligibility/batch/v1', { method: 'POST', body: csv, type: 'text/csv' }))),
    note: `${Math.round(csv.length / 1048576)} MiB body`,
  };

  if (empty.status === 202)
    report.statePendingOn10kFinished = figure(await measure(() => call(`/api/eligibility/batch/v1/${idOf(empty.text)}/items?pageSize=1&state=PENDING`)));
  if (real.status === 202) {
    report.statePendingOn10kQueued = figure(await measure(() => call(`/api/eligibility/batch/v1/${idOf(real.text)}/items?pageSize=1&state=PENDING`)));
    report.stateCompletedOn10kQueued = figure(await measure(() => call(`/api/eligibility/batch/v1/${idOf(real.text)}/items?pageSize=1&state=COMPLETED`)));
    await call(`/api/eligibility/batch/v1/${idOf(real.text)}`, { method: 'DELETE' });
  }
  gate.release();

  // 500 finished items with rich answers, written to the batch table as submit and the workers leave them.
  const rich = await call('/api/eligibility/batch/v1', {
    method: 'POST',
    body: JSON.stringify({ items: Array.from({ length: 500 }, () => ({ patientFirstName: 'X' })) }),
  });
  const richId = idOf(rich.text);
  const table = process.env.BATCH_TABLE!;
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
  const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
  for (let i = 0; i < 500; i += 25) {
    await Promise.all(
      Array.from({ length: 25 }, (_, j) =>
        client.send(
          new UpdateCommand({
            TableName: table,
            Key: { pk: `BATCH#${richId}`, sk: `ITEM#${String(i + j).padStart(6, '0')}` },
            UpdateExpression: 'SET batchId = :b, #index = :i, #state = :s, #status = :st, answer = :a, attempts = :one, counted = :no',
            ExpressionAttributeNames: { '#index': 'index', '#state': 'state', '#status': 'status' },
            ExpressionAttributeValues: { ':b': richId, ':i': i + j, ':s': 'COMPLETED', ':st': 200, ':a': richAnswer(i + j), ':one': 1, ':no': false },
          }),
        ),
      ),
    );
  }
  client.destroy();
  report.page500RichAnswers = figure(
    await measure(
      () => call(`/api/eligibility/batch/v1/${richId}/items?pageSize=500`),
      (text) => {
        const body = JSON.parse(text) as { items?: unknown[]; nextPageToken?: string; code?: string };
        return body.items
          ? `${body.items.length} items, ${Math.round(text.length / 1024)} KB${body.nextPageToken ? ', nextPageToken' : ''}`
          : `error ${body.code}`;
      },
    ),
  );

  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/batch-hostile.json'), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} finally {
  gate.release();
  await server.close();
  await environment.close();
  await gate.close();
  await sandbox.close();
}
