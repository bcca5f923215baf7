import { createServer, type Server } from 'node:http';
import { listen } from '../../infra/dev/listen.js';

/**
 * A loopback fake of the Messages API in its wire format: every POST /v1/messages gets the message
 * the test set (content blocks with page_location citations, usage with cache counts), with
 * `content-type: application/json` as the real API sends it. It records each request body.
 */
export interface FakeAnthropic {
  url: string;
  requests: Array<Record<string, unknown>>;
  answer(content: unknown[], extra?: Record<string, unknown>): void;
  close(): Promise<void>;
}

export const pageCitation = (citedText: string, page: number) => ({
  type: 'page_location',
  cited_text: citedText,
  document_index: 0,
  document_title: 'Procedure notes',
  start_page_number: page,
  end_page_number: page + 1,
});

export async function startFakeAnthropic(): Promise<FakeAnthropic> {
  let content: unknown[] = [];
  let extra: Record<string, unknown> = {};
  const requests: Array<Record<string, unknown>> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_fake_1' });
      res.end(
        JSON.stringify({
          id: 'msg_fake_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-fake',
          content,
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 1200, output_tokens: 640, cache_read_input_tokens: 900, cache_creation_input_tokens: 0 },
          ...extra,
        }),
      );
    });
  });
  const url = await listen(server, {});
  return {
    url,
    requests,
    answer(next, more = {}) {
      content = next;
      extra = more;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
