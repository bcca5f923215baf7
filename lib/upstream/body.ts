/**
 * Reading an upstream's answer with a cap (docs/api.md#upstreams): the bytes are counted while they
 * stream in and never held past the cap. Past it the caller's `drop` aborts the request (the
 * connection is closed, so the upstream stops sending) and the reader reports how far it got;
 * each client turns that into its own error (502 UPSTREAM_ERROR for the clearinghouse).
 */

const MIB = 1024 * 1024;

/** The most this service reads of one upstream answer, by kind of answer. */
export const BODY_CAPS = {
  /** A clearinghouse reply: raw X12 (the 271 in JSON) or a COB answer. */
  clearinghouseReply: 10 * MIB,
  /** One page of the payer directory search. */
  payerSearch: 2 * MIB,
  /** An insurance discovery answer (docs/finding-coverage.md): its coverages carry whole benefit lists. */
  discovery: 10 * MIB,
} as const;

export type CappedText =
  | { ok: true; text: string; bytes: number }
  /** Over the cap: `bytes` is what was read before the connection was dropped (at most cap + one chunk). */
  | { ok: false; bytes: number };

/** The cap in words for an error message ("10 MiB"). */
export const capInWords = (capBytes: number): string => (capBytes % MIB === 0 ? `${capBytes / MIB} MiB` : `${capBytes} bytes`);

/**
 * Reads `response`'s body as UTF-8 text (as `response.text()` would), stopping at `capBytes`. A
 * Content-Length over the cap is refused before any byte is read. Past the cap, `drop` is called
 * (abort the fetch) and the stream is cancelled. Stream errors (a reset, the budget's abort) are
 * thrown, as `response.text()` throws them.
 */
export async function readCappedText(response: Response, capBytes: number, drop: () => void): Promise<CappedText> {
  const declared = Number(response.headers.get('content-length'));
  const over = async (bytes: number): Promise<CappedText> => {
    drop();
    await response.body?.cancel().catch(() => undefined);
    return { ok: false, bytes };
  };
  if (Number.isFinite(declared) && declared > capBytes) return over(0);
  if (!response.body) return { ok: true, text: '', bytes: 0 };

  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > capBytes) {
      drop();
      await reader.cancel().catch(() => undefined);
      return { ok: false, bytes };
    }
    chunks.push(value);
  }
  return { ok: true, text: new TextDecoder().decode(Buffer.concat(chunks, bytes)), bytes };
}
