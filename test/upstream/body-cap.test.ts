import { describe, it, expect, beforeAll, afterAll, beforeEach } from '@jest/globals';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { BODY_CAPS, readCappedText } from '../../lib/upstream/body.js';
import { postCob, postRawX12 } from '../../lib/upstream/stedi.js';
import { getDiscovery, postDiscovery } from '../../lib/upstream/stedi-discovery.js';
import { searchStediPayers } from '../../lib/upstream/stedi-payers.js';

/**
 * docs/api.md#upstreams: an upstream answer is read with a cap, counted while it streams. A loopback
 * upstream streams a JSON answer far past the cap (without a Content-Length, so only counting can
 * stop it); the client must drop the connection before the server has sent it all, answer 502
 * UPSTREAM_ERROR without a retry, and have read no more than the cap plus one chunk.
 */
const CHUNK = 64 * 1024;

/**
 * The most bytes the kernel may hold in flight on one loopback connection: the receiving socket's
 * buffer and the sending one's at their autotuning maxima (Linux; 8 MiB where /proc does not say). What
 * the server has written when the client drops the connection is the cap, plus this, plus a chunk.
 */
function socketBuffersMax(): number {
  const max = (file: string): number | undefined => {
    try {
      return Number(readFileSync(file, 'utf8').trim().split(/\s+/)[2]);
    } catch {
      return undefined;
    }
  };
  return (max('/proc/sys/net/ipv4/tcp_rmem') ?? 4 * 1024 * 1024) + (max('/proc/sys/net/ipv4/tcp_wmem') ?? 4 * 1024 * 1024);
}

interface Stream {
  /** Bytes the server handed to the socket before the client hung up (or all of them). */
  written: number;
  /** Whether the connection closed before the server finished sending. */
  cutShort: boolean;
  closed: Promise<void>;
}

let server: Server;
let base: string;
let streams: Stream[] = [];
let totalBytes = 0;
let declareLength = false;

/** Streams `{"x12":"AAAA…"}` of `totalBytes`, one chunk at a time, waiting for the socket to drain. */
function streamPastTheCap(res: ServerResponse): void {
  let resolveClosed!: () => void;
  const stream: Stream = { written: 0, cutShort: false, closed: new Promise((resolve) => (resolveClosed = resolve)) };
  streams.push(stream);
  let finished = false;
  res.on('close', () => {
    stream.cutShort = !finished;
    resolveClosed();
  });
  res.writeHead(200, { 'content-type': 'application/json', ...(declareLength ? { 'content-length': String(totalBytes) } : {}) });
  const head = '{"x12":"';
  const filler = Buffer.alloc(CHUNK, 'A');
  res.write(head);
  stream.written += head.length;
  const pump = (): void => {
    while (!res.destroyed && stream.written + CHUNK < totalBytes - 2) {
      stream.written += CHUNK;
      if (!res.write(filler)) {
        res.once('drain', pump);
        return;
      }
    }
    if (res.destroyed) return;
    const rest = totalBytes - 2 - stream.written;
    res.end(Buffer.concat([Buffer.alloc(rest, 'A'), Buffer.from('"}')]), () => (finished = true));
    stream.written = totalBytes;
  };
  pump();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => streamPastTheCap(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  streams = [];
  declareLength = false;
});

const connection = { apiKey: 'k', budgetMs: 20_000 };
const final = () => ({ reading: undefined, retryable: false });

/** The 502 and its message, that one request was made and the server was cut off early. */
async function expectDropped(cap: number, result: { ok: boolean; error?: { code: string; message: string } }, attempts: number) {
  expect(result.ok).toBe(false);
  expect(result.error?.code).toBe('UPSTREAM_ERROR');
  expect(result.error?.message).toMatch(/larger than \d+ MiB/);
  expect(attempts).toBe(1);
  expect(streams).toHaveLength(1);
  await streams[0]!.closed;
  expect(streams[0]!.cutShort).toBe(true);
  expect(streams[0]!.written).toBeLessThan(totalBytes);
  // The server stopped once the client's cap and the sockets' buffers were full, not at the end: what
  // it wrote is bounded by the cap and the kernel's buffers (a 4 MiB allowance failed once on a machine
  // whose receive buffers grow to 32 MiB), and every case sends far more than that.
  expect(streams[0]!.written).toBeLessThan(cap + socketBuffersMax() + 2 * CHUNK);
}

describe('upstream answers are read with a cap', () => {
  it('a clearinghouse raw X12 reply past 10 MiB: connection dropped, 502 UPSTREAM_ERROR, no retry', async () => {
    totalBytes = 64 * 1024 * 1024;
    const { result, meta } = await postRawX12({ ...connection, baseUrl: base, x12: 'ISA~' }, final);
    await expectDropped(BODY_CAPS.clearinghouseReply, result as never, meta.attempts);
  });

  it('a COB reply past 10 MiB: the same', async () => {
    totalBytes = 64 * 1024 * 1024;
    const { result, meta } = await postCob({ ...connection, baseUrl: base, request: {} }, final);
    await expectDropped(BODY_CAPS.clearinghouseReply, result as never, meta.attempts);
  });

  it('an insurance discovery answer past 10 MiB, started or polled: the same', async () => {
    totalBytes = 64 * 1024 * 1024;
    const started = await postDiscovery({ ...connection, baseUrl: base }, {});
    await expectDropped(BODY_CAPS.discovery, started.result as never, started.meta.attempts);
    streams = [];
    const polled = await getDiscovery({ ...connection, baseUrl: base }, 'd-1');
    await expectDropped(BODY_CAPS.discovery, polled.result as never, polled.meta.attempts);
  });

  it('a payer search page past 2 MiB: the same', async () => {
    totalBytes = 16 * 1024 * 1024;
    const call = await searchStediPayers({ baseUrl: base, apiKey: 'k', timeoutMs: 20_000 }, { query: 'aetna' });
    await expectDropped(BODY_CAPS.payerSearch, call.result as never, call.attempts);
  });

  it('a declared Content-Length past the cap is refused before the body is read', async () => {
    totalBytes = 12 * 1024 * 1024;
    declareLength = true;
    const { result, meta } = await postRawX12({ ...connection, baseUrl: base, x12: 'ISA~' }, final);
    await expectDropped(BODY_CAPS.clearinghouseReply, result as never, meta.attempts);
  });

  it('the reader holds no more than the cap plus one chunk, and drops the connection', async () => {
    totalBytes = 32 * 1024 * 1024;
    const cap = 1024 * 1024;
    const dropped = new AbortController();
    const response = await fetch(`${base}/any`, { method: 'POST', body: '{}', signal: dropped.signal });
    const read = await readCappedText(response, cap, () => dropped.abort());
    expect(read.ok).toBe(false);
    expect(read.bytes).toBeGreaterThan(cap);
    // A socket read is at most 64 KiB here: the reader stopped at the first chunk past the cap.
    expect(read.bytes).toBeLessThanOrEqual(cap + CHUNK);
    expect(dropped.signal.aborted).toBe(true);
    await streams[0]!.closed;
    expect(streams[0]!.cutShort).toBe(true);
  });

  it('an answer just under the cap is read whole', async () => {
    totalBytes = BODY_CAPS.payerSearch - 1;
    const call = await searchStediPayers({ baseUrl: base, apiKey: 'k', timeoutMs: 20_000 }, {});
    // Read whole and parsed: it is JSON, just not a page of payers.
    expect(call.result).toMatchObject({ ok: false, error: { code: 'UPSTREAM_ERROR', message: 'The payer directory answer could not be read' } });
    await streams[0]!.closed;
    expect(streams[0]!.cutShort).toBe(false);
  });
});
