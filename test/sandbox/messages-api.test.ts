import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { startMessagesSandbox, type MessagesSandbox } from '../../infra/dev/sandbox/messages-api.js';
import { procedureNotesPdf, toBase64 } from '../fixtures/letter/pdfs.js';
import { makeBomb } from '../fixtures/letter/bombs.js';

let sandbox: MessagesSandbox;
let pdf: Uint8Array;
beforeAll(async () => {
  sandbox = await startMessagesSandbox();
  pdf = await procedureNotesPdf();
});
afterAll(() => sandbox.close());

const post = (body: unknown, headers: Record<string, string> = { 'x-api-key': 'sandbox-key' }) =>
  fetch(`${sandbox.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

const request = (text: string, data = toBase64(pdf)) => ({
  model: 'claude-test',
  max_tokens: 1000,
  messages: [
    {
      role: 'user',
      content: [
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data } },
        { type: 'text', text },
      ],
    },
  ],
});

describe('messages sandbox', () => {
  it.each(['objstm-flate-flate', 'content-flate'] as const)(
    'refuses a %s PDF bomb with 413 request_too_large before pdf-lib reads it, without ballooning',
    async (shape) => {
      const bomb = toBase64(await makeBomb(shape, shape === 'content-flate' ? 2048 : 4096));
      const rss = process.memoryUsage().rss;
      const res = await post(request('- Patient name: Ada Lovelace', bomb));
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ type: 'error', error: { type: 'request_too_large', message: expect.any(String) } });
      // Unguarded, pdf-lib would take gigabytes decoding either stream. (How long the guard takes is
      // measured by the bench, bench/hostile.ts, not asserted here.)
      expect(process.memoryUsage().rss - rss).toBeLessThan(256 * 1024 * 1024);
    },
  );

  it('listens on loopback', () => expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/));

  it('answers with page_location citations, as the API does, when the document asks for them', async () => {
    const body = request('- Patient name: Ada Lovelace');
    (body.messages[0]!.content[0] as Record<string, unknown>).citations = { enabled: true };
    (body.messages[0]!.content[0] as Record<string, unknown>).title = 'Procedure notes';
    const message = (await (await post(body)).json()) as { content: Array<{ type: string; text: string; citations?: unknown[] }> };
    const cited = message.content.filter((block) => block.citations);
    expect(cited.length).toBeGreaterThanOrEqual(3);
    expect(cited[0]!.citations![0]).toEqual({
      type: 'page_location',
      cited_text: 'Diagnosis: Primary osteoarthritis, right knee (ICD-10 M17.11).',
      document_index: 0,
      document_title: 'Procedure notes',
      start_page_number: 1,
      end_page_number: 2,
    });
    expect(message.content.every((block) => block.type === 'text')).toBe(true);
    expect(message.content.map((block) => block.text).join('')).toMatch(/^## Diagnosis/);
  });

  it('answers in the Messages wire format with a body built from the notes', async () => {
    const res = await post(request('- Patient name: Ada Lovelace'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('request-id')).toMatch(/^req_sandbox_/);
    const message = (await res.json()) as Record<string, any>;
    expect(message).toMatchObject({ type: 'message', role: 'assistant', model: 'claude-test', stop_reason: 'end_turn' });
    expect(message.id).toMatch(/^msg_/);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    const text: string = message.content[0].text;
    expect(message.content[0].type).toBe('text');
    expect(text).toMatch(/^## Diagnosis/m);
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain('M17.11');
    expect(text).toContain('CPT 27447');
    expect(text).toMatch(/^- .*12 weeks physical therapy/m);
  });

  it('requires x-api-key, in the Anthropic error format', async () => {
    const res = await post(request('x'), {});
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'authentication_error', message: expect.any(String) } });
  });

  it('accepts the key as a Bearer authorization (what the SDK 1.x sends)', async () =>
    expect((await post(request('- Patient name: B'), { authorization: 'Bearer sandbox-key' })).status).toBe(200));

  it('rejects keys starting with "invalid"', async () => expect((await post(request('x'), { 'x-api-key': 'invalid-key' })).status).toBe(401));

  it('rejects a request without model or messages', async () => {
    const res = await post({ max_tokens: 10 });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.type).toBe('invalid_request_error');
  });

  it.each([
    ['SANDBOX:429', 429, 'rate_limit_error'],
    ['SANDBOX:529', 529, 'overloaded_error'],
    ['SANDBOX:500', 500, 'api_error'],
    ['SANDBOX:400', 400, 'invalid_request_error'],
    ['SANDBOX:403', 403, 'permission_error'],
  ])('fails on %s in the metadata', async (marker, status, type) => {
    const res = await post(request(`- Patient name: ${marker}`));
    expect(res.status).toBe(status);
    expect(((await res.json()) as any).error.type).toBe(type);
    if (status === 429) expect(res.headers.get('retry-after')).toBe('1');
  });

  it('finds a marker inside the PDF text too', async () => {
    const marked = await procedureNotesPdf(['Diagnosis: something', 'SANDBOX:REFUSAL']);
    const message = (await (await post(request('- Patient name: A', toBase64(marked)))).json()) as any;
    expect(message.stop_reason).toBe('refusal');
    expect(message.content).toEqual([]);
  });

  it('fails FLAKY once per identical body, then answers', async () => {
    const body = request('- Patient name: SANDBOX:FLAKY one');
    expect((await post(body)).status).toBe(529);
    expect((await post(body)).status).toBe(200);
  });

  it('sends a broken body for BADJSON', async () => {
    const res = await post(request('SANDBOX:BADJSON'));
    expect(res.status).toBe(200);
    await expect(res.clone().json()).rejects.toThrow();
  });

  it('holds TIMEOUT requests open', async () => {
    const res = fetch(`${sandbox.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
      body: JSON.stringify(request('SANDBOX:TIMEOUT')),
      signal: AbortSignal.timeout(300),
    });
    await expect(res).rejects.toThrow();
  });
});
