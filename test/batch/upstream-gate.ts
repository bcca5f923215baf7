import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen } from '../../infra/dev/listen.js';

/**
 * A loopback proxy in front of the sandbox clearinghouse for batch tests and the bench: it records
 * each call's Idempotency-Key (and, once forwarded, the clearinghouse's status for it), the most calls
 * it held at once, and can answer 429 (a throttled clearinghouse), add latency before forwarding, or
 * hold calls until released (so a test knows exactly which calls are open when it kills the server).
 */
export interface UpstreamGate {
  url: string;
  keys: string[];
  /** Each check (POST): its path, Idempotency-Key and body bytes as they arrived. */
  requests: { path: string; key: string; body: string }[];
  maxInFlight: number;
  /** While set, checks to this path are answered with this status (and `retry-after: 0`) without reaching the sandbox. */
  failing?: { path: string; status: number } | undefined;
  /** While true, every call is answered 429 without reaching the sandbox. */
  throttled: boolean;
  /** Milliseconds added before forwarding. */
  delayMs: number;
  /** Each forwarded call's Idempotency-Key and the clearinghouse's status (a 2xx is a check charged). */
  answered: { key: string; status: number }[];
  /** Calls waiting for `release()` (counted while `holding`). */
  readonly held: number;
  /** While true, calls wait before forwarding until `release()` (after `letThrough` more have passed). */
  holding: boolean;
  /**
   * While `holding`, how many more checks (POSTs) still go through before calls wait: each one that
   * passes counts it down, and until it is 0 other calls (payer look-ups) pass too. A test sets it
   * before the calls arrive and so knows exactly which checks are let through and which are held.
   */
  letThrough: number;
  release(): void;
  close(): Promise<void>;
}

export async function startUpstreamGate(target: string): Promise<UpstreamGate> {
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const gate = {
    url: '',
    keys: [] as string[],
    requests: [] as { path: string; key: string; body: string }[],
    maxInFlight: 0,
    failing: undefined as { path: string; status: number } | undefined,
    throttled: false,
    delayMs: 0,
    answered: [] as { key: string; status: number }[],
    holding: false,
    letThrough: 0,
    get held() {
      return waiting.length;
    },
    release() {
      gate.holding = false;
      for (const resume of waiting.splice(0)) resume();
    },
    close: async (): Promise<void> => {},
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      inFlight++;
      gate.maxInFlight = Math.max(gate.maxInFlight, inFlight);
      try {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const key = String(req.headers['idempotency-key'] ?? '');
        if (req.method === 'POST') {
          gate.keys.push(key);
          gate.requests.push({ path: req.url ?? '', key, body: Buffer.concat(chunks).toString('utf8') });
        }
        if (gate.holding && gate.letThrough > 0) gate.letThrough -= req.method === 'POST' ? 1 : 0;
        else if (gate.holding) await new Promise<void>((resume) => waiting.push(resume));
        if (gate.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, gate.delayMs));
        if (gate.failing && req.method === 'POST' && req.url === gate.failing.path) {
          res.writeHead(gate.failing.status, { 'content-type': 'application/json', 'retry-after': '0' });
          res.end('{"message":"Service Unavailable"}');
          return;
        }
        if (gate.throttled) {
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
          res.end('{"message":"Too Many Requests"}');
          return;
        }
        const method = req.method ?? 'POST';
        const answer = await fetch(`${target}${req.url}`, {
          method,
          headers: { authorization: String(req.headers.authorization ?? ''), 'content-type': 'application/json' },
          ...(method === 'GET' || method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
        });
        const bytes = Buffer.from(await answer.arrayBuffer());
        if (method === 'POST') gate.answered.push({ key, status: answer.status });
        // The caller may be gone (a killed server): the clearinghouse answered, and charged, all the same.
        if (!res.destroyed) {
          res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
          res.end(bytes);
        }
      } catch {
        // The sandbox went away under a forward (a test tearing down): the caller gets a 502, nothing throws.
        if (!res.headersSent && !res.destroyed) {
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end('{"message":"upstream gate: the clearinghouse did not answer"}');
        } else res.destroy();
      } finally {
        inFlight--;
      }
    })();
  });
  gate.url = await listen(server, { port: 0, host: '127.0.0.1' });
  gate.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return gate;
}
