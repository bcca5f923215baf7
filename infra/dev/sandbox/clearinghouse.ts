/**
 * A loopback stand-in for Stedi (docs/api.md#sandboxes): the raw X12 eligibility endpoint, the COB check,
 * the Payers API search (./payers.ts), insurance discovery and the Medicare number lookup payers (./discovery.ts),
 * speaking Stedi's wire formats, so `npm start` and the tests run every upstream path with no account.
 * Eligibility answers come from SANDBOX_PATIENTS; COB answers from cob-answers.ts. The fault
 * patients (HTTP 429/500, slow, 999, truncated, bad JSON) apply to both endpoints where they make sense.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen } from '../listen.js';
import type { StediCobRequest } from '../../../lib/cob/request.js';
import { isJsonObject } from '../../../lib/upstream/json.js';
import { cobSandboxAnswer } from './cob-answers.js';
import { DISCOVERY_ROUTE, discoverySandbox, findDiscoveredPatient, findMbiPatient } from './discovery.js';
import { findSandboxPatient, SANDBOX_PATIENTS, type SandboxPatient } from './patients.js';
import { sandboxPayerSearch } from './payers.js';
import { onDateOfService } from './plan-year.js';
import { read270 } from './read270.js';
import { clockOf, write271, write999 } from './reply271.js';

export const RAW_X12_ROUTE = '/change/medicalnetwork/eligibility/v3/raw-x12';
export const COB_ROUTE = '/coordination-of-benefits';
export const PAYER_SEARCH_ROUTE = '/payers/search';

export interface ClearinghouseSandboxOptions {
  port?: number;
  host?: string;
  /** The only Authorization value accepted; when unset any non-empty value is. */
  apiKey?: string;
  /** How long the 'slow' patient takes to answer (default 35 s, past the service's 25 s budget). */
  slowMs?: number;
  now?: () => Date;
}

export interface ClearinghouseSandbox {
  url: string;
  close(): Promise<void>;
  stats: { rawX12Calls: number; cobCalls: number; payerSearchCalls: number; discoveryCalls: number; discoveryResultCalls: number };
  /** The Idempotency-Key of each discovery started, in order ('' when none was sent). */
  discoveryKeys: string[];
}

const MAX_BODY_BYTES = 1024 * 1024;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-requestid': randomUUID(), 'x-sandbox': 'clearinghouse', ...headers });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function startClearinghouseSandbox(options: ClearinghouseSandboxOptions = {}): Promise<ClearinghouseSandbox> {
  const stats = { rawX12Calls: 0, cobCalls: 0, payerSearchCalls: 0, discoveryCalls: 0, discoveryResultCalls: 0 };
  const slowMs = options.slowMs ?? 35_000;
  const now = options.now ?? (() => new Date());
  const discoveries = discoverySandbox(now);
  const discoveryKeys: string[] = [];
  const callsByMember = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();

  /** Applies a patient's HTTP-level fault; returns true when the answer was sent (or scheduled). */
  function fault(res: ServerResponse, patient: SandboxPatient | undefined, answer: () => void): boolean {
    switch (patient?.fault) {
      case 'http-429':
        send(res, 429, { message: 'Too Many Requests' });
        return true;
      case 'http-500':
        send(res, 500, { message: 'Internal Server Error' });
        return true;
      case 'flaky-500': {
        const n = (callsByMember.get(patient.memberId) ?? 0) + 1;
        callsByMember.set(patient.memberId, n);
        if (n % 2 === 1) {
          send(res, 500, { message: 'Internal Server Error' });
          return true;
        }
        return false;
      }
      case 'slow': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          answer();
        }, slowMs);
        timers.add(timer);
        return true;
      }
      case 'malformed-json':
        send(res, 200, '{"x12": "ISA*00*          *00*  ');
        return true;
      default:
        return false;
    }
  }

  async function rawX12(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const body = text === undefined ? undefined : parseJson(text);
    const clock = clockOf(now());
    if (!isJsonObject(body) || typeof body.x12 !== 'string') {
      return send(res, 400, { message: 'Request body must be JSON with an x12 string' });
    }
    const read = read270(body.x12);
    // Stedi validates the 270 before it reaches a payer; an unreadable one comes back as a 999.
    if (!read.ok) return send(res, 400, { x12: write999(undefined, clock), errors: [{ description: read.reason }] });
    const inquiry = read.inquiry;
    // The payer answers per plan year: a date of service outside it gets the payer's usual answer (./plan-year.ts).
    const found = findSandboxPatient(inquiry) ?? findDiscoveredPatient(inquiry) ?? findMbiPatient(inquiry);
    const patient = found && onDateOfService(found, inquiry.dateOfService);
    const answer = (): void => send(res, 200, { x12: write271(inquiry, patient, clock), meta: { applicationMode: 'sandbox' } });
    if (fault(res, patient, answer)) return;
    if (patient?.fault === 'reply-999') return send(res, 400, { x12: write999(inquiry, clock), meta: { applicationMode: 'sandbox' } });
    if (patient?.fault === 'truncated-271') return send(res, 200, { x12: write271(inquiry, patient, clock, { truncate: true }) });
    answer();
  }

  async function cob(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const body = text === undefined ? undefined : parseJson(text);
    if (!isJsonObject(body)) return send(res, 400, { message: 'Request body must be a JSON object' });
    const request = body as unknown as StediCobRequest;
    const s = request.subscriber;
    // Fault patients are found by name and member id, as on the eligibility side.
    const patient = SANDBOX_PATIENTS.find(
      (p) =>
        p.fault !== undefined &&
        p.memberId.toUpperCase() === (s?.memberId ?? '').trim().toUpperCase() &&
        p.lastName.toUpperCase() === (s?.lastName ?? '').trim().toUpperCase(),
    );
    const answer = (): void => {
      const { status, body: json } = cobSandboxAnswer(request);
      send(res, status, json);
    };
    if (fault(res, patient, answer)) return;
    answer();
  }

  const server = createServer((req, res) => {
    const route = (req.url ?? '').split('?')[0];
    if (route === PAYER_SEARCH_ROUTE) return payerSearch(req, res);
    if (route === DISCOVERY_ROUTE || route.startsWith(`${DISCOVERY_ROUTE}/`)) return discovery(req, res, route);
    const handler = route === RAW_X12_ROUTE ? rawX12 : route === COB_ROUTE ? cob : undefined;
    if (!handler) return send(res, 404, { message: 'Not Found' });
    if (req.method !== 'POST') return send(res, 405, { message: 'Method Not Allowed' });
    // Every request that reaches an endpoint counts, refused ones included: tests assert attempts with it.
    if (handler === rawX12) stats.rawX12Calls++;
    else stats.cobCalls++;
    const authorization = req.headers.authorization ?? '';
    const allowed = options.apiKey === undefined ? authorization.trim() !== '' : authorization === options.apiKey;
    if (!allowed) {
      req.resume();
      return send(res, 401, { message: 'Unauthorized' });
    }
    handler(req, res).catch(() => send(res, 500, { message: 'Internal Server Error' }));
  });

  /** POST starts a discovery, GET /{discoveryId} reads it (./discovery.ts); a wrong key is 401 as elsewhere. */
  async function discovery(req: IncomingMessage, res: ServerResponse, route: string): Promise<void> {
    const starting = route === DISCOVERY_ROUTE;
    if (starting) {
      stats.discoveryCalls++;
      discoveryKeys.push(String(req.headers['idempotency-key'] ?? ''));
    } else stats.discoveryResultCalls++;
    const authorization = req.headers.authorization ?? '';
    if (options.apiKey === undefined ? authorization.trim() === '' : authorization !== options.apiKey) {
      req.resume();
      return send(res, 401, { message: 'Unauthorized' });
    }
    if (req.method !== (starting ? 'POST' : 'GET')) {
      req.resume();
      return send(res, 405, { message: 'Method Not Allowed' });
    }
    if (!starting) {
      req.resume();
      const { status, body } = discoveries.result(decodeURIComponent(route.slice(DISCOVERY_ROUTE.length + 1)));
      return send(res, status, body);
    }
    const text = await readBody(req);
    const body = text === undefined ? undefined : parseJson(text);
    if (!isJsonObject(body)) return send(res, 400, { message: 'Request body must be a JSON object' });
    const { status, body: json } = discoveries.start(body);
    send(res, status, json);
  }

  /** GET /payers/search: the directory answers from memory; a wrong key is 401 as elsewhere. */
  function payerSearch(req: IncomingMessage, res: ServerResponse): void {
    stats.payerSearchCalls++;
    req.resume();
    if (req.method !== 'GET') {
      send(res, 405, { message: 'Method Not Allowed' });
      return;
    }
    const authorization = req.headers.authorization ?? '';
    if (options.apiKey === undefined ? authorization.trim() === '' : authorization !== options.apiKey) {
      send(res, 401, { message: 'Unauthorized' });
      return;
    }
    const { status, body } = sandboxPayerSearch(new URL(req.url ?? '/', 'http://sandbox').searchParams);
    send(res, status, body);
  }

  const url = await listen(server, options);

  return {
    url,
    stats,
    discoveryKeys,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
