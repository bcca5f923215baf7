import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { listen } from '../listen.js';
import { inflateSync } from 'node:zlib';
import { checkPdfDecompression, MAX_DECOMPRESSED_BYTES } from '../../lib/letter/decompression-guard.js';

/**
 * Sandbox Anthropic Messages API (CONTRACT §7): a loopback HTTP server speaking the Messages wire
 * format, so `npm start` and the tests run the letter route with no account anywhere.
 *
 * POST /v1/messages needs a key: the `x-api-key` header, or `Authorization: Bearer <key>`, which is what
 * the installed @anthropic-ai/sdk 1.x sends (else 401 authentication_error). A key starting with
 * `invalid` is rejected with 401 too, to exercise rejected credentials. It writes a structured letter
 * body from the request: the text it can read from the PDF document block (literal and hex strings of
 * plain or Flate content streams, as pdf-lib writes them) and the metadata text block.
 *
 * Failure markers: put one of these anywhere in the PDF text or the metadata (e.g. in patient_name):
 *   SANDBOX:429          429 rate_limit_error, retry-after: 1
 *   SANDBOX:529          529 overloaded_error
 *   SANDBOX:500          500 api_error
 *   SANDBOX:FLAKY        529 on the first request with this exact body, then a normal answer
 *   SANDBOX:400          400 invalid_request_error
 *   SANDBOX:403          403 permission_error
 *   SANDBOX:TIMEOUT      never answers (until the client gives up or the sandbox closes)
 *   SANDBOX:REFUSAL      200, stop_reason "refusal", no text
 *   SANDBOX:DECLINE      200, the text "CANNOT_WRITE_LETTER: …" (the prompt's sentinel)
 *   SANDBOX:PLACEHOLDER  200, a body containing "[Patient Name]"
 *   SANDBOX:TRUNCATED    200, stop_reason "max_tokens"
 *   SANDBOX:BADJSON      200 with a body that is not JSON
 * Markers must never appear in real documents; the sandbox only runs when no real key is configured.
 *
 * A document whose streams would decompress past 64 MiB is refused with 413 request_too_large before
 * any text is read from it (the same guard as the letter route: docs/security.md#pdf-bombs).
 */

export interface MessagesSandbox {
  url: string;
  close(): Promise<void>;
  /** Requests received so far (for tests asserting the retry count). */
  requestCount(): number;
}

interface ContentBlock {
  type?: string;
  text?: string;
  source?: { type?: string; media_type?: string; data?: string };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_sandbox_${randomUUID()}`, ...headers });
  res.end(JSON.stringify(body));
};

const apiError = (res: ServerResponse, status: number, type: string, message: string, headers?: Record<string, string>) =>
  json(res, status, { type: 'error', error: { type, message } }, headers);

/** Decodes PDF string literals: escapes and octal codes. */
const literal = (raw: string): string =>
  raw.replace(/\\([nrtbf()\\]|[0-7]{1,3}|\r?\n)/g, (_, esc: string) => {
    const table: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '(': '(', ')': ')', '\\': '\\' };
    if (esc in table) return table[esc];
    if (/^[0-7]+$/.test(esc)) return String.fromCharCode(Number.parseInt(esc, 8));
    return '';
  });

/** Best-effort text of a PDF written by simple generators: show-text operands of each content stream. */
export function extractPdfText(pdf: Buffer): string {
  const source = pdf.toString('latin1');
  const lines: string[] = [];
  // Second line of defence after checkPdfDecompression: never inflate more than the cap in all.
  let inflated = 0;
  const streamPattern = /stream\r?\n/g;
  for (let match = streamPattern.exec(source); match; match = streamPattern.exec(source)) {
    const start = match.index + match[0].length;
    const end = source.indexOf('endstream', start);
    if (end < 0) break;
    const raw = pdf.subarray(start, end);
    let content: string;
    try {
      const out = inflateSync(raw, { maxOutputLength: Math.max(1, MAX_DECOMPRESSED_BYTES - inflated) });
      inflated += out.length;
      content = out.toString('latin1');
    } catch {
      content = raw.toString('latin1');
    }
    const shows = /(\[(?:[^\]\\]|\\.)*\]|\((?:[^()\\]|\\.)*\)|<[0-9A-Fa-f\s]*>)\s*(Tj|TJ|'|")/g;
    for (let show = shows.exec(content); show; show = shows.exec(content)) {
      const parts = show[1].match(/\((?:[^()\\]|\\.)*\)|<[0-9A-Fa-f\s]*>/g) ?? [];
      lines.push(
        parts
          .map((part) =>
            part.startsWith('(') ? literal(part.slice(1, -1)) : Buffer.from(part.slice(1, -1).replace(/\s/g, ''), 'hex').toString('latin1'),
          )
          .join(''),
      );
    }
    streamPattern.lastIndex = end;
  }
  return lines.join('\n');
}

const pick = (text: string, pattern: RegExp): string | undefined => pattern.exec(text)?.[1]?.trim();

/** A plausible clinical body built from what the notes say; never from anything it cannot see. */
export function sandboxLetterBody(notes: string, metadata: string): string {
  const name = pick(metadata, /Patient name:\s*(.+)/) ?? 'the patient';
  const diagnosis = pick(notes, /Diagnosis:\s*(.+)/i) ?? 'the condition documented in the procedure notes';
  const procedure = pick(notes, /(?:Planned procedure|Procedure):\s*(.+)/i) ?? 'the procedure documented in the procedure notes';
  const icd = [...new Set(notes.match(/\b[A-TV-Z]\d{2}(?:\.\d{1,4})?\b/g) ?? [])];
  const cpt = [...new Set((notes.match(/CPT\s*(\d{5})/g) ?? []).map((m) => m.replace(/\D/g, '')))];
  const findings = notes
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !/^(Diagnosis|Planned procedure|Procedure)\b/i.test(line))
    .slice(0, 6);
  return [
    '## Diagnosis',
    '',
    `${name} is under our care for ${diagnosis.replace(/\.$/, '')}.` + (icd.length ? ` Documented ICD-10 codes: **${icd.join(', ')}**.` : ''),
    '',
    '## Requested Service',
    '',
    `We request approval of ${procedure.replace(/\.$/, '')}` + (cpt.length ? ` (**CPT ${cpt.join(', ')}**).` : '.'),
    '',
    '## Clinical History and Findings',
    '',
    ...(findings.length ? findings.map((line) => `- ${line}`) : ['- The procedure notes record the history and examination that support this request.']),
    '',
    '## Medical Necessity',
    '',
    'The documented findings show a condition that limits daily function and has not responded to appropriate care. ' +
      'The requested service is the accepted treatment for this presentation and is expected to relieve symptoms and restore function.',
    '',
    '### Alternatives Considered',
    '',
    '1. *Continued conservative management*: already tried without lasting relief, as documented in the notes.',
    '2. *Watchful waiting*: would prolong functional limitation and risk further decline.',
    '',
    '## Request',
    '',
    'Based on the clinical record, the requested service is **medically necessary**. We ask that it be approved.',
  ].join('\n');
}

const MARKERS = ['429', '529', '500', 'FLAKY', '400', '403', 'TIMEOUT', 'REFUSAL', 'DECLINE', 'PLACEHOLDER', 'TRUNCATED', 'BADJSON'] as const;
type Marker = (typeof MARKERS)[number];
const findMarker = (text: string): Marker | undefined => MARKERS.find((marker) => new RegExp(`SANDBOX:${marker}\\b`).test(text));

export async function startMessagesSandbox(options: { port?: number; host?: string } = {}): Promise<MessagesSandbox> {
  const sockets = new Set<Socket>();
  const flakySeen = new Set<string>();
  let requests = 0;

  const handle = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    requests += 1;
    if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== '/v1/messages') {
      return apiError(res, 404, 'not_found_error', 'Not found');
    }
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const key = req.headers['x-api-key'] ?? bearer;
    if (typeof key !== 'string' || key === '') {
      return apiError(res, 401, 'authentication_error', 'an x-api-key header or a Bearer authorization is required');
    }
    if (key.startsWith('invalid')) return apiError(res, 401, 'authentication_error', 'invalid x-api-key');

    let body: { model?: unknown; max_tokens?: unknown; messages?: Array<{ role?: string; content?: string | ContentBlock[] }> };
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return apiError(res, 400, 'invalid_request_error', 'Request body is not valid JSON');
    }
    if (typeof body.model !== 'string' || typeof body.max_tokens !== 'number' || !Array.isArray(body.messages)) {
      return apiError(res, 400, 'invalid_request_error', 'model, max_tokens and messages are required');
    }
    const blocks = body.messages.flatMap((m) => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content ?? [])));
    const metadata = blocks.filter((b) => b.type === 'text').map((b) => b.text ?? '').join('\n');
    const documents = blocks
      .filter((b) => b.type === 'document' && b.source?.type === 'base64' && typeof b.source.data === 'string')
      .map((b) => Buffer.from(b.source!.data!, 'base64'));
    return respond(res, raw, body, documents, metadata);
  };

  const respond = async (
    res: ServerResponse,
    raw: Buffer,
    body: { model?: unknown },
    documents: Buffer[],
    metadata: string,
  ): Promise<void> => {
    for (const document of documents) {
      if (!(await checkPdfDecompression(document)).ok) {
        return apiError(res, 413, 'request_too_large', 'the PDF document would decompress past the size limit');
      }
    }
    const notes = documents.map((document) => extractPdfText(document)).join('\n');

    const marker = findMarker(`${notes}\n${metadata}`);
    const message = (text: string, stopReason: string) =>
      json(res, 200, {
        id: `msg_sandbox_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: text ? [{ type: 'text', text }] : [],
        stop_reason: stopReason,
        stop_sequence: null,
        usage: { input_tokens: Math.ceil(raw.length / 4), output_tokens: Math.ceil(text.length / 4) },
      });

    switch (marker) {
      case '429':
        return apiError(res, 429, 'rate_limit_error', 'Sandbox rate limit', { 'retry-after': '1' });
      case '529':
        return apiError(res, 529, 'overloaded_error', 'Sandbox overloaded');
      case '500':
        return apiError(res, 500, 'api_error', 'Sandbox internal error');
      case 'FLAKY': {
        const digest = createHash('sha256').update(raw).digest('hex');
        if (!flakySeen.has(digest)) {
          flakySeen.add(digest);
          return apiError(res, 529, 'overloaded_error', 'Sandbox overloaded (once)');
        }
        return message(sandboxLetterBody(notes, metadata), 'end_turn');
      }
      case '400':
        return apiError(res, 400, 'invalid_request_error', 'Sandbox could not process the document');
      case '403':
        return apiError(res, 403, 'permission_error', 'Sandbox key lacks permission');
      case 'TIMEOUT':
        return; // hold the socket open; close() destroys it
      case 'REFUSAL':
        return message('', 'refusal');
      case 'DECLINE':
        return message('CANNOT_WRITE_LETTER: the document does not contain procedure notes', 'end_turn');
      case 'PLACEHOLDER':
        return message(sandboxLetterBody(notes, metadata).replace('## Request', 'Patient: [Patient Name]\n\n## Request'), 'end_turn');
      case 'TRUNCATED':
        return message(sandboxLetterBody(notes, metadata).slice(0, 400), 'max_tokens');
      case 'BADJSON':
        res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_sandbox_badjson' });
        res.end('{"id": "msg_broken", "content": [');
        return;
      default:
        return message(sandboxLetterBody(notes, metadata), 'end_turn');
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      Promise.resolve(handle(req, res, Buffer.concat(chunks))).catch(() => apiError(res, 500, 'api_error', 'Sandbox internal error'));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const url = await listen(server, options);
  return {
    url,
    requestCount: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
