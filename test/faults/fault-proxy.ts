import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback reverse proxy placed between the service and a sandbox. It records every request it
 * receives (path + body), so a test counts the attempts made for one patient or marker even when
 * cases run concurrently, and it can inject the faults no sandbox has: a connection reset before
 * any answer, a reset half way through the body, and a body that trickles in slower than the budget.
 * A request whose body contains a fault's trigger string gets that fault; anything else is forwarded.
 *
 * Every connection carries one request, on both sides (`Connection: close` on its answers, a fresh
 * connection to the sandbox): a kept-alive socket closed as idle while the next attempt goes out on it
 * would be a reset no test asked for, and a starved event loop on a busy machine outlasts a keep-alive
 * timeout (docs/testing.md#rules-the-suites-keep).
 */
export type ProxyFault = 'reset' | 'reset-mid-body' | 'slow-body';

export interface FaultProxy {
  url: string;
  /** Requests whose path ends with `pathSuffix` and whose body contains `tag`. */
  count(tag: string, pathSuffix?: string): number;
  /** Of those, the ones whose caller hung up before the answer was complete (it gave up waiting). */
  hungUp(tag: string, pathSuffix?: string): number;
  /** Resolves once a request matching `tag` and `pathSuffix` has arrived whole (its attempt is in flight): an event to wait on, not a sleep. */
  arrived(tag: string, pathSuffix?: string): Promise<void>;
  /** Resolves once every request seen so far has closed (a caller's hang-up lands after its own answer). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string, faults: Record<string, ProxyFault> = {}): Promise<FaultProxy> {
  const seen: { path: string; body: string; hungUp: boolean; closed: Promise<void> }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  /** Waiters of arrived(), each told of every request as it is recorded. */
  const waiters = new Set<() => void>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = req.url ?? '/';
    let closingItself = false;
    const destroy = (): void => {
      closingItself = true;
      res.socket?.destroy();
    };
    const record = { path, body, hungUp: false, closed: new Promise<void>((resolve) => res.once('close', resolve)) };
    seen.push(record);
    for (const wake of waiters) wake();
    // Closed before the answer was complete, and not by the proxy's own fault: the caller gave up.
    void record.closed.then(() => {
      if (!res.writableFinished && !closingItself) record.hungUp = true;
    });

    const fault = Object.entries(faults).find(([trigger]) => body.includes(trigger))?.[1];
    if (fault === 'reset') {
      destroy();
      return;
    }
    if (fault === 'reset-mid-body') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
      res.write('{"x12":"ISA*00*');
      const timer = setTimeout(() => {
        timers.delete(timer);
        destroy();
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
    const headers: Record<string, string> = { connection: 'close' };
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive'].includes(name)) headers[name] = value;
    }
    const upstream = await forward(`${target}${path}`, req.method ?? 'POST', headers, body, abort.signal);
    if (upstream === undefined || res.destroyed) return void destroy();
    const out: Record<string, string | string[]> = { connection: 'close' };
    for (const [name, value] of Object.entries(upstream.headers)) {
      if (value !== undefined && !['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)) out[name] = value;
    }
    res.writeHead(upstream.status, out);
    res.end(upstream.text);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.socket?.destroy());
  });
  const matching = (tag: string, pathSuffix: string) => seen.filter((r) => r.body.includes(tag) && r.path.split('?')[0]!.endsWith(pathSuffix));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    count: (tag, pathSuffix = '') => matching(tag, pathSuffix).length,
    hungUp: (tag, pathSuffix = '') => matching(tag, pathSuffix).filter((r) => r.hungUp).length,
    arrived: (tag, pathSuffix = '') =>
      new Promise<void>((resolve) => {
        const wake = (): void => {
          if (matching(tag, pathSuffix).length === 0) return;
          waiters.delete(wake);
          resolve();
        };
        waiters.add(wake);
        wake();
      }),
    settled: async () => {
      await Promise.all(seen.map((r) => r.closed));
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One request to the sandbox on a connection of its own; undefined when it fails or is aborted. */
function forward(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<{ status: number; headers: IncomingMessage['headers']; text: string } | undefined> {
  return new Promise((resolve) => {
    const outgoing = request(url, { method, headers, agent: false, signal }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.once('end', () => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, text: Buffer.concat(chunks).toString('utf8') }));
      answer.once('error', () => resolve(undefined));
      answer.once('aborted', () => resolve(undefined));
    });
    outgoing.once('error', () => resolve(undefined));
    outgoing.end(body || undefined);
  });
}
