import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startMessagesSandbox, type MessagesSandbox } from '../../infra/dev/sandbox/messages-api.js';
import { deflateSync } from 'node:zlib';
import { assemblePdf } from '../fixtures/letter/bombs.js';
import { HOSTILE_PDFS } from '../fixtures/letter/hostile-pdfs.js';
import { procedureNotesPdf, toBase64 } from '../fixtures/letter/pdfs.js';

/**
 * The local AI sandbox reads a document as the letter route does first, in an isolated worker under
 * a deadline (docs/security.md#parsing-in-isolation): a fake PDF is a 400 before its own pdf-lib
 * reads it, and the same server answers the next request.
 */

let sandbox: MessagesSandbox;
beforeAll(async () => {
  sandbox = await startMessagesSandbox();
});
afterAll(() => sandbox.close());

const post = (data: string) =>
  fetch(`${sandbox.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'sandbox-key' },
    body: JSON.stringify({
      model: 'claude-test',
      max_tokens: 1000,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data } },
            { type: 'text', text: '- Patient name: A B' },
          ],
        },
      ],
    }),
  });

describe('messages sandbox and hostile PDF structure', () => {
  it.each(['dict-openers', 'array-openers', 'random-bytes', 'objstm-overlapping', 'page-tree-dag'] as const)(
    '%s: 400 invalid_request_error, then the next request is answered',
    async (shape) => {
      const res = await post(HOSTILE_PDFS[shape].make().toString('base64'));
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'The PDF could not be read' } });
      expect((await post(toBase64(await procedureNotesPdf()))).status).toBe(200);
    },
  );

  it('a page of 2 MiB of unclosed "[" (within every limit) is read in one pass: a letter, then the next request', async () => {
    const content = deflateSync(Buffer.alloc(2 * 1024 * 1024, '[ (a'));
    const pdf = assemblePdf([
      { dict: '<< /Type /Catalog /Pages 2 0 R >>' },
      { dict: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
      { dict: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>' },
      { dict: '/Filter /FlateDecode', stream: content },
    ]);
    const res = await post(pdf.toString('base64'));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { content: unknown[] }).content.length).toBeGreaterThan(0);
    expect((await post(toBase64(await procedureNotesPdf()))).status).toBe(200);
  });
});
