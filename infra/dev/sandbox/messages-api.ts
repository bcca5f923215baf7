import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { listen } from '../listen.js';
import type { PDFObject } from 'pdf-lib';
import { checkPdfDecompression, parseInWorker } from '../../../lib/letter/index.js';
import { imagesOf, transcribeCards } from './cards/transcribe.js';
import { criteriaBlocks } from './messages-criteria.js';
import { writeMessageStream, type StreamedToolUse } from './messages-stream.js';
import type { NotesLine, SandboxBlock } from './messages-types.js';

export type { NotesLine, SandboxBlock } from './messages-types.js';
import { showTextLines } from './show-text.js';

/**
 * Sandbox Anthropic Messages API (docs/api.md#sandboxes): a loopback HTTP server speaking the Messages wire
 * format, so `npm start` and the tests run the letter route with no account anywhere.
 *
 * POST /v1/messages needs a key: the `x-api-key` header, or `Authorization: Bearer <key>`, which is what
 * the installed @anthropic-ai/sdk 1.x sends (else 401 authentication_error). A key starting with
 * `invalid` is rejected with 401 too, to exercise rejected credentials. It writes a structured letter
 * body from the request: the PDF document block's text layer (read as the service reads it, per
 * page) and the metadata text block. When the document block has `citations: {enabled: true}`, the
 * answer is several text blocks, and each sentence taken from the notes carries a `page_location`
 * citation (cited_text, document_index, document_title, start_page_number, end_page_number), as
 * the real API sends them. A `system` prompt marked `cache_control` is reported as a cache write on
 * first sight and a cache read after (usage.cache_creation_input_tokens / cache_read_input_tokens).
 * A request with `stream: true` (the service's) is answered with server-sent events (./messages-stream.ts).
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
 *   SANDBOX:BADJSON      200 with a body that is not JSON (an event whose data is not JSON, when streamed)
 *   SANDBOX:INVENTED     200, a normal body plus an ICD-10 code the notes do not hold (G89.29)
 *   SANDBOX:DELAY=<s>    the normal answer, sent only after <s> seconds (0–300; e.g. a letter past 30 s)
 * Markers must never appear in real documents; the sandbox only runs when no real key is configured.
 *
 * A document is checked as the letter route checks it before the sandbox's own pdf-lib reads it: the
 * decompression guard (docs/security.md#pdf-bombs), then the isolated parse
 * (docs/security.md#parsing-in-isolation). One whose streams would decompress past 64 MiB, or with
 * over 100 pages, is refused with 413 request_too_large; one the libraries cannot read within their
 * deadline (4 MB of `<<` after `%PDF-`) or at all with 400 invalid_request_error.
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
  title?: unknown;
  citations?: { enabled?: boolean };
  source?: { type?: string; media_type?: string; data?: string };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_sandbox_${randomUUID()}`, ...headers });
  res.end(JSON.stringify(body));
};

const apiError = (res: ServerResponse, status: number, type: string, message: string, headers?: Record<string, string>) =>
  json(res, status, { type: 'error', error: { type, message } }, headers);

/**
 * The notes' text per page, cheaply: each page's content streams decoded by pdf-lib and their
 * show-text operators read. Enough for the sandbox's own letter; the service reads the real text
 * layer with pdf.js (lib/letter/intake/text-layer.ts). A page with no text gives no lines (a scan).
 * The caller passes pdf-lib, loaded at the first document rather than with the sandbox (most local runs
 * and tests never send one), and outside the caller's "could not be read" handling: a library that
 * fails to load is the sandbox's fault, not the document's.
 */
export async function notesLines(pdf: Uint8Array, pdfLib: typeof import('pdf-lib')): Promise<NotesLine[]> {
  const { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream } = pdfLib;
  const doc = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
  const lines: NotesLine[] = [];
  doc.getPages().forEach((page, index) => {
    const contents = page.node.Contents();
    const streams: PDFObject[] = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)!) : contents ? [contents] : [];
    for (const stream of streams) {
      if (!(stream instanceof PDFRawStream)) continue;
      const text = Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
      for (const line of showTextLines(text)) if (line.trim()) lines.push({ page: index + 1, text: line.trim() });
    }
  });
  return lines;
}

const pick = (lines: NotesLine[], pattern: RegExp): NotesLine | undefined => {
  for (const line of lines) {
    const match = pattern.exec(line.text);
    if (match?.[1]?.trim()) return { ...line, value: match[1].trim() };
  }
  return undefined;
};

const cite = (line: NotesLine, documentTitle: string | null) => ({
  type: 'page_location' as const,
  cited_text: line.text,
  document_index: 0,
  document_title: documentTitle,
  start_page_number: line.page,
  // Exclusive, as the API reports it.
  end_page_number: line.page + 1,
});

/**
 * A plausible clinical body built from what the notes say, never from anything it cannot see, as
 * text blocks: each sentence taken from the notes carries a citation of its line and page. With
 * `invent`, it also writes a code the notes do not hold (what a careless model might do).
 */
export function sandboxLetterBlocks(lines: NotesLine[], metadata: string, options: { documentTitle?: string | null; invent?: boolean } = {}): SandboxBlock[] {
  const title = options.documentTitle ?? null;
  const name = /Patient name:\s*(.+)/.exec(metadata)?.[1]?.trim() ?? 'the patient';
  const diagnosis = pick(lines, /Diagnosis:\s*(.+)/i);
  const procedure = pick(lines, /(?:Planned procedure|Procedure):\s*(.+)/i);
  const all = lines.map((line) => line.text).join('\n');
  const icd = [...new Set(all.match(/\b[A-TV-Z]\d{2}(?:\.\d{1,4})?\b/g) ?? [])];
  const cpt = [...new Set((all.match(/CPT\s*(\d{5})/g) ?? []).map((m) => m.replace(/\D/g, '')))];
  const findings = lines.filter((line) => line.text.trim() !== '' && !/^(Diagnosis|Planned procedure|Procedure)\b/i.test(line.text)).slice(0, 6);
  const blocks: SandboxBlock[] = [];
  const text = (value: string) => blocks.push({ type: 'text', text: value });
  const cited = (value: string, line: NotesLine) => blocks.push({ type: 'text', text: value, citations: [cite(line, title)] });

  text(`## Diagnosis\n\n${name} is under our care for `);
  if (diagnosis) cited(diagnosis.value!.replace(/\.$/, ''), diagnosis);
  else text('the condition documented in the procedure notes');
  text(`.${icd.length ? ` Documented ICD-10 codes: **${icd.join(', ')}**.` : ''}`);
  if (options.invent) text(' Secondary diagnosis: chronic pain (ICD-10 G89.29).');
  text('\n\n## Requested Service\n\nWe request approval of ');
  if (procedure) cited(procedure.value!.replace(/\.$/, ''), procedure);
  else text('the procedure documented in the procedure notes');
  text(cpt.length ? ` (**CPT ${cpt.join(', ')}**).` : '.');
  text('\n\n## Clinical History and Findings\n\n');
  if (findings.length) {
    findings.forEach((line, index) => {
      text('- ');
      cited(line.text.trim(), line);
      text(index < findings.length - 1 ? '\n' : '');
    });
  } else {
    text('- The procedure notes record the history and examination that support this request.');
  }
  text(
    [
      '',
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
    ].join('\n'),
  );
  return blocks;
}

/** The blocks' text joined, as a client that ignores citations would read it. */
export const blocksText = (blocks: SandboxBlock[]): string => blocks.map((block) => block.text).join('');

const MARKERS = ['429', '529', '500', 'FLAKY', '400', '403', 'TIMEOUT', 'REFUSAL', 'DECLINE', 'PLACEHOLDER', 'TRUNCATED', 'BADJSON', 'INVENTED'] as const;
type Marker = (typeof MARKERS)[number];
const findMarker = (text: string): Marker | undefined => MARKERS.find((marker) => new RegExp(`SANDBOX:${marker}\\b`).test(text));
/** `SANDBOX:DELAY=<seconds>` (decimals allowed, at most 300) → milliseconds. */
const delayMarker = (text: string): number | undefined => {
  const seconds = Number(/SANDBOX:DELAY=(\d+(?:\.\d+)?)\b/.exec(text)?.[1] ?? NaN);
  return Number.isFinite(seconds) && seconds <= 300 ? Math.round(seconds * 1000) : undefined;
};

export async function startMessagesSandbox(options: { port?: number; host?: string } = {}): Promise<MessagesSandbox> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const flakySeen = new Set<string>();
  const systemCacheSeen = new Set<string>();
  let requests = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
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

    let body: {
      model?: unknown;
      max_tokens?: unknown;
      stream?: unknown;
      system?: string | Array<{ type?: string; text?: string; cache_control?: { type?: string } }>;
      tool_choice?: { type?: string; name?: string };
      messages?: Array<{ role?: string; content?: string | ContentBlock[] }>;
    };
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return apiError(res, 400, 'invalid_request_error', 'Request body is not valid JSON');
    }
    if (typeof body.model !== 'string' || typeof body.max_tokens !== 'number' || !Array.isArray(body.messages)) {
      return apiError(res, 400, 'invalid_request_error', 'model, max_tokens and messages are required');
    }
    const blocks = body.messages.flatMap((m) => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content ?? [])));
    const metadata = blocks
      .filter((b) => b.type === 'text')
      .map((b) => b.text ?? '')
      .join('\n');
    const documents = blocks.filter((b) => b.type === 'document' && b.source?.type === 'base64' && typeof b.source.data === 'string');
    const pdfs = documents.map((document) => new Uint8Array(Buffer.from(document.source!.data!, 'base64')));
    for (const pdf of pdfs) {
      if (!(await checkPdfDecompression(pdf)).ok) return apiError(res, 413, 'request_too_large', 'the PDF document is over the size limit');
      // Read in isolation first, as the service reads it: its own pdf-lib pass below only sees a file that passed.
      const parsed = await parseInWorker(pdf, { maxPages: 100 });
      if (parsed.kind === 'read' && parsed.pages > 100) return apiError(res, 413, 'request_too_large', 'A maximum of 100 PDF pages may be provided');
      if (parsed.kind !== 'read' || parsed.pages === 0) return apiError(res, 400, 'invalid_request_error', 'The PDF could not be read');
    }
    // Every document's lines: the notes first, then (a policy-grounded letter) the policy and the denial.
    const documentLines: NotesLine[][] = [];
    if (pdfs.length) {
      const pdfLib = await import('pdf-lib');
      try {
        for (const pdf of pdfs) documentLines.push(await notesLines(pdf, pdfLib));
      } catch {
        return apiError(res, 400, 'invalid_request_error', 'The PDF could not be read');
      }
    }
    const lines = documentLines[0] ?? [];
    /** The policy or the denial, found by the title the service gives it (docs/letter.md#the-criteria-layout). */
    const documentNamed = (prefix: string) => {
      const index = documents.findIndex((d) => typeof d.title === 'string' && d.title.startsWith(prefix));
      return index > 0 ? { index, title: documents[index]!.title as string, lines: documentLines[index] ?? [] } : undefined;
    };
    const notes = lines.map((line) => line.text).join('\n');
    const citationsOn = documents[0]?.citations?.enabled === true;
    const documentTitle = typeof documents[0]?.title === 'string' ? documents[0].title : null;
    const letterBlocks = (invent = false) => {
      const extra = criteriaBlocks({
        notes: lines,
        policy: documentNamed('Payer policy'),
        denial: documentNamed('Denial letter'),
        inventCriterion: /SANDBOX:INVENTED_CRITERION\b/.test(`${notes}\n${metadata}`),
      });
      const built = [...sandboxLetterBlocks(lines, metadata, { documentTitle, invent }), ...extra.body, ...extra.sections];
      // Without citations enabled, the real API answers with one plain text block.
      return citationsOn ? built : [{ type: 'text' as const, text: blocksText(built) }];
    };

    const marker = findMarker(`${notes}\n${metadata}`);
    const send = (content: Array<SandboxBlock | StreamedToolUse>, stopReason: string) => {
      const outputChars = content.reduce((sum, block) => sum + (block.type === 'text' ? block.text.length : JSON.stringify(block.input).length), 0);
      const system = JSON.stringify(body.system ?? '');
      const cached = Array.isArray(body.system) && body.system.some((b) => b?.cache_control?.type === 'ephemeral');
      const systemTokens = Math.ceil(system.length / 4);
      // Cached system prompts: the first request writes the cache, later ones read it (as the API reports).
      const cacheRead = cached && systemCacheSeen.has(system) ? systemTokens : 0;
      const cacheWrite = cached && !systemCacheSeen.has(system) ? systemTokens : 0;
      if (cached) systemCacheSeen.add(system);
      const answer = {
        id: `msg_sandbox_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
        model: body.model as string,
        content,
        stop_reason: stopReason,
        usage: {
          input_tokens: Math.ceil(raw.length / 4) - cacheRead - cacheWrite,
          output_tokens: Math.ceil(outputChars / 4),
          cache_read_input_tokens: cacheRead,
          cache_creation_input_tokens: cacheWrite,
        },
      };
      // A `stream: true` request (what the service sends) gets server-sent events, as from the real API.
      if (body.stream === true) return writeMessageStream(res, answer, { 'request-id': `req_sandbox_${randomUUID()}` });
      json(res, 200, { ...answer, type: 'message', role: 'assistant', stop_sequence: null });
    };
    const message = (text: string, stopReason: string) => send(text ? [{ type: 'text', text }] : [], stopReason);

    // A forced tool call is the insurance card's: the sample cards are known by their bytes (./cards/transcribe.ts).
    if (body.tool_choice?.type === 'tool' && typeof body.tool_choice.name === 'string') {
      const input = transcribeCards(imagesOf(body.messages));
      return send([{ type: 'tool_use', id: `toolu_sandbox_${randomUUID().replace(/-/g, '').slice(0, 24)}`, name: body.tool_choice.name, input }], 'tool_use');
    }

    const delay = delayMarker(`${notes}\n${metadata}`);
    if (delay !== undefined) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) send(letterBlocks(), 'end_turn');
      }, delay);
      timers.add(timer);
      return;
    }

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
        return send(letterBlocks(), 'end_turn');
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
        return message(blocksText(letterBlocks()).replace('## Request', 'Patient: [Patient Name]\n\n## Request'), 'end_turn');
      case 'TRUNCATED':
        return message(blocksText(letterBlocks()).slice(0, 400), 'max_tokens');
      case 'INVENTED':
        return send(letterBlocks(true), 'end_turn');
      case 'BADJSON':
        res.writeHead(200, { 'content-type': body.stream === true ? 'text/event-stream' : 'application/json', 'request-id': 'req_sandbox_badjson' });
        return res.end(body.stream === true ? 'event: message_start\ndata: {"id": "msg_broken", "content": [\n\n' : '{"id": "msg_broken", "content": [');
      default:
        return send(letterBlocks(), 'end_turn');
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks)).catch(() => {
        if (!res.headersSent) apiError(res, 500, 'api_error', 'Sandbox internal error');
      });
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
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
