import { once } from 'node:events';
import { connect } from 'node:net';

/**
 * A raw HTTP/1.1 connection for the tests that need what fetch will not send: repeated headers in
 * a chosen order and casing, thousands of headers, headers now and the body later (or never).
 * `response()` waits for the next whole response (a 1xx has no body), `sent()` counts what the
 * client wrote, `closed()` resolves when the server hangs up.
 */

export interface RawReply {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: any;
}

export interface RawConnection {
  write(text: string | Buffer): void;
  response(): Promise<RawReply>;
  closed(): Promise<void>;
  close(): void;
}

export async function rawConnection(base: string): Promise<RawConnection> {
  const url = new URL(base);
  const socket = connect(Number(url.port), url.hostname);
  await once(socket, 'connect');
  let buffer = '';
  let isClosed = false;
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const wakeUp of waiters.splice(0)) wakeUp();
  };
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    wake();
  });
  socket.on('close', () => {
    isClosed = true;
    wake();
  });
  socket.on('error', () => undefined);

  const take = (): RawReply | undefined => {
    const end = buffer.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine, ...lines] = buffer.slice(0, end).split('\r\n');
    const status = Number(statusLine!.split(' ')[1]);
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    const body =
      status >= 200 && headers['transfer-encoding'] === 'chunked'
        ? dechunk(buffer, end + 4)
        : fixedLength(buffer, end + 4, status < 200 ? 0 : Number(headers['content-length'] ?? 0));
    if (!body) return undefined;
    buffer = buffer.slice(body.next);
    return { status, headers, text: body.text, json: body.text ? JSON.parse(body.text) : undefined };
  };

  return {
    write: (text) => void (isClosed ? undefined : socket.write(text)),
    async response() {
      for (;;) {
        const reply = take();
        if (reply) return reply;
        if (isClosed) throw new Error(`the server closed the connection after ${JSON.stringify(buffer.slice(0, 200))}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    closed: () => (isClosed ? Promise.resolve() : once(socket, 'close').then(() => undefined)),
    close: () => socket.destroy(),
  };
}

type Body = { text: string; next: number } | undefined;

const fixedLength = (buffer: string, start: number, length: number): Body =>
  buffer.length < start + length ? undefined : { text: buffer.slice(start, start + length), next: start + length };

/** A chunked body, once its last (empty) chunk has arrived. */
function dechunk(buffer: string, start: number): Body {
  let text = '';
  let at = start;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(buffer.slice(at, lineEnd), 16);
    if (buffer.length < lineEnd + 2 + size + 2) return undefined;
    if (size === 0) return { text, next: lineEnd + 4 };
    text += buffer.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/** A request head: the request line, then `headers` in the order and casing given. */
export function requestHead(method: string, path: string, headers: [string, string | number][]): string {
  return `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
}
