import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { LocalEnvironment } from '../../infra/dev/local/environment.js';
import { startMessagesSandbox, type MessagesSandbox } from '../../infra/dev/sandbox/messages-api.js';
import { apiEvent, invoke } from '../support/events.js';

/**
 * A letter of any size replays byte-identical under its Idempotency-Key without a second model
 * call (issue #21): a PDF with CJK and Arabic text embeds fonts that push it past what one DynamoDB
 * item holds, so its render recipe is stored and the replay re-renders it. The streamed letter
 * function runs in process against the loopback Messages API sandbox and the local dynalite.
 */

const pdfBody = JSON.parse(JSON.parse(readFileSync(new URL('../../events/letter-pdf.json', import.meta.url), 'utf8')).body) as Record<string, unknown>;
const ROUTE = 'POST /api/generate-letter';
/** What the service stores of one answer at most (docs/runtime.md#idempotency: stored forms stay under 350 KB). */
const MAX_STORED_BYTES = 350 * 1024;

let environment: LocalEnvironment;
let messages: MessagesSandbox;
let handler: unknown;
let n = 0;
const freshKey = () => `letter-replay-${Date.now()}-${n++}`;

beforeAll(async () => {
  messages = await startMessagesSandbox();
  process.env.ANTHROPIC_BASE_URL = messages.url;
  process.env.ANTHROPIC_API_KEY = 'sandbox-key';
  const { startLocalEnvironment } = await import('../support/local-environment.js');
  environment = await startLocalEnvironment(process.env);
  const { loadHandler } = await import('../../infra/dev/local/routes.js');
  handler = await loadHandler('letter');
}, 60_000);

afterAll(async () => {
  await environment?.close();
  await messages?.close();
});

/** `count` distinct CJK ideographs (each one more glyph in the embedded font subset). */
const cjk = (from: number, count: number): string => Array.from({ length: count }, (_, i) => String.fromCodePoint(0x4e00 + 37 * (from + i))).join('');

const keyed = (body: unknown, key: string) => apiEvent(ROUTE, body, { headers: { 'Idempotency-Key': key } });

async function twice(body: Record<string, unknown>) {
  const key = freshKey();
  const before = messages.requestCount();
  const first = await invoke(handler, keyed(body, key));
  const second = await invoke(handler, keyed(body, key));
  return { first, second, modelCalls: messages.requestCount() - before };
}

describe('letter replay under an Idempotency-Key', () => {
  it('a CJK and Arabic PDF letter too large to store whole replays byte-identical with one model call', async () => {
    const { first, second, modelCalls } = await twice({
      ...pdfBody,
      patient_name: `王小明 محمد العلي ${cjk(0, 100)}`,
      facility_name: `東京整形外科センター ${cjk(100, 180)}`,
      provider_signature: cjk(280, 180),
      provider_name: `${cjk(460, 120)} שלום עולם नमस्ते दुनिया`,
      payer_name: `مستشفى الملك فهد ${cjk(580, 90)}`,
    });
    expect(first.status).toBe(200);
    // The case this test is for: the answer alone is past what one store item holds.
    expect(Buffer.byteLength(JSON.stringify(first.body))).toBeGreaterThan(MAX_STORED_BYTES);
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(JSON.stringify(second.body)).toBe(JSON.stringify(first.body));
    expect(Buffer.from(second.body.fileContent, 'base64').equals(Buffer.from(first.body.fileContent, 'base64'))).toBe(true);
    expect(modelCalls).toBe(1);
  }, 60_000);

  it('a small Latin PDF letter is stored whole and replays byte-identical too', async () => {
    const { first, second, modelCalls } = await twice(pdfBody);
    expect(Buffer.byteLength(JSON.stringify(first.body))).toBeLessThan(MAX_STORED_BYTES);
    expect([second.status, second.headers['idempotent-replayed']]).toEqual([200, 'true']);
    expect(JSON.stringify(second.body)).toBe(JSON.stringify(first.body));
    expect(modelCalls).toBe(1);
  }, 60_000);
});
