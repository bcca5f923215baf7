/**
 * The clearinghouse port (docs/architecture.md#ports-and-adapters): what the domain asks of a
 * clearinghouse, in the domain's words. Eligibility, COB and the payer directory call
 * `runtime.clearinghouse`; which clearinghouse answers (and with which key, URL and budget) is the
 * adapter's business (lib/upstream/clearinghouse.ts), picked once in ./index.ts. The built-in
 * sandbox is reached through the same adapter, so no domain code can tell the two apart.
 *
 * Insurance discovery (find a patient's coverage from demographics: start one, read its result) and
 * the Medicare number lookup (an eligibility check whose payer the clearinghouse picks) are methods
 * here too (docs/finding-coverage.md).
 */
import type { Result } from '../errors/index.js';
import type { DirectoryPage, DirectorySearch } from '../payers/types.js';

/** Log-safe facts about one call: attempts, time on the clock, the upstream's status and trace id. */
export interface ClearinghouseCallMeta {
  /** Which endpoint answered, for the log line (`upstream`). */
  upstream: string;
  attempts: number;
  latencyMs: number;
  /** HTTP status of the last answer, when there was one. */
  httpStatus?: number;
  /** The upstream's request id of the last answer, for support tickets. */
  traceId?: string;
}

export interface ClearinghouseCall<T> {
  result: Result<T>;
  meta: ClearinghouseCallMeta;
}

/** The caller's reading of a reply, and whether the reply is worth one more attempt (AAA 42/80 alone). */
export type ReadReply<A extends unknown[], R> = (...reply: A) => { reading: R; retryable: boolean };

export interface X12Reply<R> {
  /** The 271 (or a 999 when the 270 was rejected). */
  x12: string;
  httpStatus: number;
  /** What the caller's reader made of this reply: each reply is read once. */
  reading: R;
}

export interface CobReply<R> {
  httpStatus: number;
  /** The COB answer's JSON object. */
  body: unknown;
  reading: R;
}

/** Per call: a batch item's attempt sends its own key, so a redelivered attempt is never charged twice. */
interface CallOptions {
  idempotencyKey?: string;
}

export interface DiscoveryReply {
  httpStatus: number;
  /** The clearinghouse's JSON object, read by lib/discovery/from-stedi.ts. */
  body: Record<string, unknown>;
}

export interface Clearinghouse {
  /** The built-in sandbox answers (logged with each call, docs/api.md#upstreams). */
  readonly sandbox: boolean;
  /**
   * Sends a 270 (a fresh one per attempt: `x12(attemptNo)`) and returns the reply with the caller's
   * reading of it; a reading marked retryable gets the one retry, and is returned if none happens.
   */
  eligibility<R>(request: CallOptions & { x12: (attemptNo: number) => string }, read: ReadReply<[x12: string], R>): Promise<ClearinghouseCall<X12Reply<R>>>;
  /** Sends a coordination-of-benefits check (the body lib/cob builds), read as `eligibility` is. */
  coordinationOfBenefits<R>(
    request: CallOptions & { body: unknown },
    read: ReadReply<[httpStatus: number, body: unknown], R>,
  ): Promise<ClearinghouseCall<CobReply<R>>>;
  /** Starts an insurance discovery with the body lib/discovery builds (an attempt key rides along, as on `eligibility`). */
  discover(request: CallOptions & { body: unknown }): Promise<ClearinghouseCall<DiscoveryReply>>;
  /** Reads a discovery's result by the clearinghouse's own id (PENDING or COMPLETE). */
  discoveryResult(upstreamId: string): Promise<ClearinghouseCall<DiscoveryReply>>;
  /**
   * A Medicare number lookup: a 270 to the clearinghouse's lookup payer, which depends on whether the
   * SSN is sent (`x12(payerId, attemptNo)` builds it for that payer), read as `eligibility` is.
   */
  lookupMbi<R>(
    request: CallOptions & { withSsn: boolean; x12: (payerId: string, attemptNo: number) => string },
    read: ReadReply<[x12: string], R>,
  ): Promise<ClearinghouseCall<X12Reply<R>>>;
  /** One page of the clearinghouse's payer directory. */
  searchPayers(search: DirectorySearch): Promise<ClearinghouseCall<DirectoryPage>>;
}
