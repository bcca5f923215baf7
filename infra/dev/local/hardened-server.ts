import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { NO_STORE } from '../../../lib/http/index.js';

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

/** A refusal from Node's HTTP parser: the chunk it was reading and where in it it stopped. */
type ParserError = NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number; reason?: string };

const CONTENT_LENGTH = { status: 400, message: 'The Content-Length header is not valid: one number, and never with Transfer-Encoding' };

/** What Node's own refusals become: status and message by error code (a malformed header is named), else 400. */
const CLIENT_ERRORS: Record<string, { status: number; message: string | ((error: ParserError) => string) }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'The request headers are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive' },
  HPE_INVALID_CONTENT_LENGTH: CONTENT_LENGTH,
  HPE_UNEXPECTED_CONTENT_LENGTH: CONTENT_LENGTH,
  // llhttp names whichever of the two headers came second when both are sent: either order is the Content-Length
  // rule. Its reason says so ("Transfer-Encoding can't be present with Content-Length"); the chunk read so far is
  // the second witness, should a version word the reason otherwise.
  HPE_INVALID_TRANSFER_ENCODING: {
    status: 400,
    message: (error) =>
      /content-length/i.test(error.reason ?? '') || /^content-length\s*:/im.test(headersRead(error))
        ? CONTENT_LENGTH.message
        : 'The Transfer-Encoding header is not valid: only chunked is accepted',
  },
  HPE_INVALID_HEADER_TOKEN: {
    status: 400,
    message: (error) => {
      const name = headerNameAt(error);
      return name ? `The ${name} header is not valid HTTP: its value has a character HTTP does not allow` : 'A header name is not valid HTTP';
    },
  },
};
const MALFORMED = { status: 400, message: 'The request is not valid HTTP' };

/** What the parser had read of the chunk it refused, up to where it stopped ('' when Node does not say). */
function headersRead({ rawPacket, bytesParsed }: ParserError): string {
  return rawPacket && bytesParsed !== undefined ? rawPacket.subarray(0, bytesParsed).toString('latin1') : '';
}

/**
 * The name of the header line the parser stopped in, when that name is a plain header name (so
 * nothing else the caller sent is echoed); undefined when the name itself is what is wrong.
 */
function headerNameAt(error: ParserError): string | undefined {
  const read = headersRead(error);
  const line = read.slice(read.lastIndexOf('\n') + 1);
  const name = line.includes(':') ? line.slice(0, line.indexOf(':')) : '';
  return /^[A-Za-z0-9-]{1,64}$/.test(name) ? name : undefined;
}

function answerClientError(error: ParserError, socket: Duplex & { _httpMessage?: ServerResponse | null }): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  // An answer is already on its way (a refusal given before the body, whose unread bytes are what
  // failed to parse): let it go out, then close; never a second status line on the same connection.
  const inFlight = socket._httpMessage;
  if (inFlight?.headersSent) {
    if (inFlight.writableFinished) socket.end();
    else inFlight.once('finish', () => socket.end());
    return;
  }
  const { status, message } = (error.code && CLIENT_ERRORS[error.code]) || MALFORMED;
  const body = JSON.stringify({ message: typeof message === 'function' ? message(error) : message });
  const headers = {
    'content-type': 'application/json',
    ...NO_STORE,
    'x-request-id': randomUUID(),
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  };
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n${body}`,
  );
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
