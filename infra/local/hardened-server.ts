import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { NO_STORE } from '../../lib/http/response.js';

/**
 * The local server's HTTP limits (docs/security.md#local-server): a connection whose headers are
 * not complete within 10 s, or whose whole request is not complete within 30 s, is closed; what
 * Node refuses on its own (a malformed request line, headers over 16 KiB, those timeouts) is
 * answered with a JSON body and `Cache-Control: no-store` instead of Node's bare text. Like API
 * Gateway's own answers (which these stand in for), the body is `{"message": …}` only. Node would
 * keep the first 2,000 headers and drop the others unseen; here one more is kept, so the request
 * listener can tell and refuse (431).
 */

export const LOCAL_LIMITS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  /** Authorizer results kept at most (least recently used out first). */
  authorizerCacheEntries: 10_000,
  /** Headers read per request; one more is a 431, never a silently dropped header. */
  maxHeaders: 2_000,
  /** Bytes of request bodies held at once, all requests together (over it: 503 with Retry-After). */
  maxBodyBytesHeld: 64 * 1024 * 1024,
} as const;

export interface HttpTimeouts {
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
}

/** What Node's own refusals become: status by error code, else 400. */
const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'The request headers are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive' },
};
const MALFORMED = { status: 400, message: 'The request is not valid HTTP' };

function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const { status, message } = (error.code && CLIENT_ERRORS[error.code]) || MALFORMED;
  const body = JSON.stringify({ message });
  const headers = {
    'content-type': 'application/json',
    ...NO_STORE,
    'x-request-id': randomUUID(),
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  };
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${body}`);
}

export function hardenedServer(listener: RequestListener, timeouts: HttpTimeouts = {}): Server {
  const headersTimeout = timeouts.headersTimeoutMs ?? LOCAL_LIMITS.headersTimeoutMs;
  const requestTimeout = Math.max(timeouts.requestTimeoutMs ?? LOCAL_LIMITS.requestTimeoutMs, headersTimeout);
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      // How often Node checks those two timeouts (its default, 30 s, would let a slow client stay far longer).
      connectionsCheckingInterval: Math.min(1_000, headersTimeout),
    },
    listener,
  );
  // Node keeps this many and drops the rest without a word; keeping one more than we read lets
  // the listener see that there were too many and answer 431.
  server.maxHeadersCount = LOCAL_LIMITS.maxHeaders + 1;
  server.on('clientError', answerClientError);
  return server;
}
