import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback reverse proxy placed between the service and a sandbox. It records every request it
 * receives (path + body), so a test counts the attempts made for one patient or marker even when
 * cases run concurrently, and it can inject the faults no sandbox has: a connection reset before
 * any answer, a reset half way through the body, and a body that trickles in slower than the budget.
 * A request whose body contains a fault's trigger string gets that fault; anything else is forwarded.
 */
export type ProxyFault = 'reset' | 'reset-mid-body' | 'slow-body';

export interface FaultProxy {
  url: string;
  /** Requests whose path ends with `pathSuffix` and whose body contains `tag`. */
  count(tag: string, pathSuffix?: string): number;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string, faults: Record<string, ProxyFault> = {}): Promise<FaultProxy> {
  const seen: { path: string; body: string }[] = [];
  const timers = new Set<NodeJS.Timeout>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = req.url ?? '/';
    seen.push({ path, body });

    const fault = Object.entries(faults).find(([trigger]) => body.includes(trigger))?.[1];
    if (fault === 'reset') {
      req.socket.destroy();
      return;
    }
    if (fault === 'reset-mid-body') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
      res.write('{"x12":"ISA*00*');
      const timer = setTimeout(() => {
        timers.delete(timer);
        res.socket?.destroy();
      }, 20);
      timers.add(timer);
      return;
    }
    if (fault === 'slow-body') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"x12":"');
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write('*')), 200);
      timers.add(timer);
      res.once('close', () => {
        clearInterval(timer);
        timers.delete(timer);
      });
      return;
    }

    // Forward; when the caller gives up (budget), stop waiting on the sandbox too.
    const abort = new AbortController();
    res.once('close', () => abort.abort());
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'content-length', 'connection', 'transfer-encoding'].includes(name)) headers[name] = value;
    }
    let upstream: Response;
    try {
      upstream = await fetch(`${target}${path}`, { method: req.method ?? 'POST', headers, body: body || undefined, signal: abort.signal });
    } catch {
      res.socket?.destroy();
      return;
    }
    const text = await upstream.text().catch(() => undefined);
    if (text === undefined || res.destroyed) return void res.socket?.destroy();
    const out: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)) out[name] = value;
    });
    res.writeHead(upstream.status, out);
    res.end(text);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.socket?.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    count: (tag, pathSuffix = '') => seen.filter((r) => r.body.includes(tag) && r.path.split('?')[0]!.endsWith(pathSuffix)).length,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
