import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Request bodies, read only once the caller is authenticated (docs/security.md#local-server), and
 * a cap on the bytes of bodies the server holds at once. A body's bytes count from the moment it is
 * accepted until its response is closed (the function is still holding the event). A declared
 * Content-Length is reserved whole before a byte is read, so a refusal (413 over the 6 MiB limit,
 * 503 at the cap) comes before the client sends its body; a chunked body is counted as it arrives.
 * At the cap the answer is 503 with Retry-After rather than a wait: waiting would keep sockets and
 * half-read bodies alive, and several waiting bodies could each hold what the others need.
 */

export type BodyRead = { kind: 'body'; body: Buffer } | { kind: 'too-large' } | { kind: 'busy' };

/** The bytes of bodies held at once, per server. */
export class BodyBudget {
  private held = 0;

  constructor(readonly maxBytes: number) {}

  get heldBytes(): number {
    return this.held;
  }

  /** Takes `bytes` if they fit under the cap. */
  take(bytes: number): boolean {
    if (this.held + bytes > this.maxBytes) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }
}

export interface BodyLimits {
  /** The most one body may have (Lambda's 6 MiB payload). */
  maxBytes: number;
  budget: BodyBudget;
  /** Called just before the first byte is read (the server sends `100 Continue` here when asked). */
  beforeReading?: () => void;
}

const EMPTY = Buffer.alloc(0);

/** Reads `req`'s body under the limits; the bytes stay counted until `res` closes. */
export function readBody(req: IncomingMessage, res: ServerResponse, { maxBytes, budget, beforeReading }: BodyLimits): Promise<BodyRead> {
  const declared = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (!chunked && !declared) return Promise.resolve({ kind: 'body', body: EMPTY });
  if (declared !== undefined && declared > maxBytes) return Promise.resolve({ kind: 'too-large' });

  let reserved = 0;
  const reserve = (bytes: number) => {
    if (!budget.take(bytes)) return false;
    reserved += bytes;
    return true;
  };
  res.once('close', () => budget.give(reserved));
  if (!reserve(declared ?? 0)) return Promise.resolve({ kind: 'busy' });

  beforeReading?.();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (outcome: BodyRead) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.pause();
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return stop({ kind: 'too-large' });
      if (size > reserved && !reserve(size - reserved)) return stop({ kind: 'busy' });
      chunks.push(chunk);
    };
    const onEnd = () => resolve({ kind: 'body', body: Buffer.concat(chunks, size) });
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
    // A client that hangs up mid-body ends the wait (its bytes are given back when `res` closes).
    req.once('close', () => (req.complete ? undefined : reject(new Error('the client closed the connection mid-body'))));
  });
}
