import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen } from '../../infra/listen.js';

/**
 * A loopback proxy in front of the sandbox clearinghouse for batch tests and the bench: it records
 * each call's Idempotency-Key, the most calls it held at once, and can answer 429 (a throttled
 * clearinghouse) or add latency before forwarding.
 */
export interface UpstreamGate {
  url: string;
  keys: string[];
  maxInFlight: number;
  /** While true, every call is answered 429 without reaching the sandbox. */
  throttled: boolean;
  /** Milliseconds added before forwarding. */
  delayMs: number;
  close(): Promise<void>;
}

export async function startUpstreamGate(target: string): Promise<UpstreamGate> {
  let inFlight = 0;
  const gate = {
    url: '',
    keys: [] as string[],
    maxInFlight: 0,
    throttled: false,
    delayMs: 0,
    close: async (): Promise<void> => {},
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      inFlight++;
      gate.maxInFlight = Math.max(gate.maxInFlight, inFlight);
      try {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        if (req.method === 'POST') gate.keys.push(String(req.headers['idempotency-key'] ?? ''));
        if (gate.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, gate.delayMs));
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
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await answer.arrayBuffer()));
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
