import { createServer, type Server, type ServerResponse } from 'node:http';
import { listen } from '../../infra/dev/listen.js';
import { ok } from '../../lib/errors/index.js';
import type { LetterAi } from '../../lib/letter/index.js';
import type { LanguageModel } from '../../lib/runtime/index.js';
import { anthropicModel } from '../../lib/upstream/index.js';
import { sseEvent, writeMessageStream, type StreamedBlock } from '../../infra/dev/sandbox/messages-stream.js';

/**
 * A loopback fake of the Messages API in its wire format: every POST /v1/messages gets the message
 * the test set (content blocks with page_location citations, usage with cache counts), with
 * `content-type: application/json` as the real API sends it, or as server-sent events
 * (`text/event-stream`) when the request says `stream: true`, as the service's requests do. It
 * records each request body.
 *
 * `flood(chars)` makes the next answers a model that never stops talking: one text block streamed
 * in deltas, `chars` characters in all, written as fast as the client reads them; `flooded()` says
 * how many text characters went out and whether the client hung up before the end.
 */
export interface FakeAnthropic {
  url: string;
  requests: Array<Record<string, unknown>>;
  answer(content: unknown[], extra?: Record<string, unknown>): void;
  flood(chars: number): void;
  /** Resolves once the flooded answer's connection closed, with what went out. */
  flooded(): Promise<{ sentChars: number; hungUp: boolean }>;
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

interface FloodReport {
  sentChars: number;
  hungUp: boolean;
  closed: () => void;
  done: Promise<void>;
}

const floodReport = (): FloodReport => {
  let closed = () => {};
  const done = new Promise<void>((resolve) => {
    closed = resolve;
  });
  return { sentChars: 0, hungUp: false, closed, done };
};

const USAGE = { input_tokens: 1200, output_tokens: 640, cache_read_input_tokens: 900, cache_creation_input_tokens: 0 };
const HEADERS = { 'request-id': 'req_fake_1' };

/** Streams `chars` characters of text in 4 KiB deltas, honouring back-pressure, until done or the client hangs up. */
function streamFlood(res: ServerResponse, chars: number, report: FloodReport): void {
  const chunk = 'The patient reports knee pain. '.repeat(132).slice(0, 4096);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...HEADERS });
  res.write(
    sseEvent('message_start', {
      message: { id: 'msg_flood', type: 'message', role: 'assistant', model: 'claude-fake', content: [], stop_reason: null, stop_sequence: null, usage: USAGE },
    }),
  );
  res.write(sseEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
  res.on('close', () => {
    report.hungUp = report.sentChars < chars || !res.writableFinished;
    report.closed();
  });
  const pump = () => {
    while (report.sentChars < chars && !res.destroyed) {
      const text = chunk.slice(0, chars - report.sentChars);
      report.sentChars += text.length;
      if (!res.write(sseEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }))) return void res.once('drain', pump);
    }
    if (res.destroyed) return;
    res.write(sseEvent('content_block_stop', { index: 0 }));
    res.write(sseEvent('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 640 } }));
    res.end(sseEvent('message_stop', {}));
  };
  pump();
}

export async function startFakeAnthropic(): Promise<FakeAnthropic> {
  let content: unknown[] = [];
  let extra: Record<string, unknown> = {};
  let flood = 0;
  let report = floodReport();
  const requests: Array<Record<string, unknown>> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      requests.push(body);
      if (flood > 0) return streamFlood(res, flood, report);
      const message = { id: 'msg_fake_1', model: 'claude-fake', content: content as StreamedBlock[], stop_reason: 'end_turn', usage: USAGE, ...extra };
      if (body.stream === true) return writeMessageStream(res, message, HEADERS);
      res.writeHead(200, { 'content-type': 'application/json', ...HEADERS });
      res.end(JSON.stringify({ ...message, type: 'message', role: 'assistant', stop_sequence: null }));
    });
  });
  const url = await listen(server, {});
  return {
    url,
    requests,
    answer(next, more = {}) {
      content = next;
      extra = more;
      flood = 0;
    },
    flood(chars) {
      flood = chars;
      report = floodReport();
    },
    flooded: async () => {
      await report.done;
      return { sentChars: report.sentChars, hungUp: report.hungUp };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The language model port (lib/runtime/model.ts) aimed at a Messages API at `url` (a fake or the sandbox)
 * through the production adapter, with a key that is there.
 */
export const modelAt = (url: string, options: { key?: string; id?: string; sandbox?: boolean } = {}): LanguageModel =>
  anthropicModel({ model: options.id ?? 'claude-fake', apiKey: async () => ok(options.key ?? 'fake'), baseURL: url, sandbox: options.sandbox ?? false });

/** A letter's model and time budget (lib/letter `LetterAi`) aimed at `url`: the model of {@link modelAt}, 20 s unless told. */
export const letterAiAt = (url: string, options: { key?: string; id?: string; budgetMs?: number } = {}): LetterAi => ({
  model: modelAt(url, options),
  budgetMs: options.budgetMs ?? 20_000,
});
