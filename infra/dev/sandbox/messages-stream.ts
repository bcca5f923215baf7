import type { ServerResponse } from 'node:http';

/**
 * A Messages API answer as the real API streams it (server-sent events, `content-type:
 * text/event-stream`): `message_start`, then per content block `content_block_start`, its
 * `text_delta`s and `citations_delta`s (a tool_use block: its input as `input_json_delta`s) and `content_block_stop`, then `message_delta` (stop reason,
 * output tokens) and `message_stop`. The local sandbox (./messages-api.ts) and the tests' wire-format
 * fake both answer a `stream: true` request with it, so the client reads the same bytes it reads
 * from api.anthropic.com.
 */

/** One text block of an answer, with its page citations (the API's `page_location` objects). */
export interface StreamedBlock {
  type: 'text';
  text: string;
  citations?: unknown[];
}

/** A tool call of an answer (a forced tool_choice answers with one). */
export interface StreamedToolUse {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

/** Everything a streamed answer carries besides its blocks. */
export interface StreamedMessage {
  id: string;
  model: string;
  content: Array<StreamedBlock | StreamedToolUse>;
  stop_reason: string | null;
  usage: { input_tokens: number; output_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number };
}

/** One event, in the SSE framing the SDK parses. */
export const sseEvent = (type: string, data: unknown): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...(data as object) })}\n\n`;

/** Text deltas of at most this many characters (the real API sends a few tokens per delta). */
const DELTA_CHARS = 64;

/** The events of `message`, in order. */
export function messageEvents(message: StreamedMessage): string[] {
  const { content, stop_reason, usage, ...head } = message;
  const events = [
    sseEvent('message_start', {
      message: { ...head, type: 'message', role: 'assistant', content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
    }),
  ];
  content.forEach((block, index) => {
    if (block.type === 'tool_use') {
      const json = JSON.stringify(block.input);
      events.push(sseEvent('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }));
      for (let at = 0; at < json.length; at += DELTA_CHARS) {
        events.push(sseEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(at, at + DELTA_CHARS) } }));
      }
      events.push(sseEvent('content_block_stop', { index }));
      return;
    }
    events.push(sseEvent('content_block_start', { index, content_block: { type: 'text', text: '', ...(block.citations ? { citations: [] } : {}) } }));
    for (let at = 0; at < block.text.length; at += DELTA_CHARS) {
      events.push(sseEvent('content_block_delta', { index, delta: { type: 'text_delta', text: block.text.slice(at, at + DELTA_CHARS) } }));
    }
    for (const citation of block.citations ?? []) events.push(sseEvent('content_block_delta', { index, delta: { type: 'citations_delta', citation } }));
    events.push(sseEvent('content_block_stop', { index }));
  });
  events.push(sseEvent('message_delta', { delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }));
  events.push(sseEvent('message_stop', {}));
  return events;
}

/** Writes the answer as a 200 event stream. */
export function writeMessageStream(res: ServerResponse, message: StreamedMessage, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
  res.end(messageEvents(message).join(''));
}
