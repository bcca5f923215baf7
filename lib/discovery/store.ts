/**
 * What insurance discovery needs from storage (docs/finding-coverage.md#storage): the port, owned
 * here; ./dynamodb.ts keeps it in the batch table under its own key prefix (KMS-encrypted, TTL).
 * A record holds the patient the discovery asked about (to run a check per coverage once the
 * result is COMPLETE) and the answer once built, for 24 hours, like Stedi's own results.
 */
import type { DiscoveryRequest } from '../validation/schemas.js';
import type { Coverage, DiscoveryStatus } from './types.js';

/** How long a discovery can be polled: Stedi keeps its results for 24 hours. */
export const DISCOVERY_TTL_SECONDS = 24 * 60 * 60;

export interface DiscoveryRecord {
  /** Ours: random and unguessable, never the clearinghouse's. */
  discoveryId: string;
  clientId: string;
  /** The clearinghouse's id of the same discovery. */
  upstreamId: string;
  status: DiscoveryStatus;
  /** The patient asked about (patient data: the table is encrypted and the record expires). */
  request: DiscoveryRequest;
  /** Once COMPLETE. */
  coverages?: Coverage[];
  createdAt: string;
  /** Epoch seconds: the table's TTL attribute. */
  expiresAt: number;
}

export interface DiscoveryStore {
  /** The record when it is this client's and not expired at `nowMs`; otherwise undefined (another client's id is unknown). */
  get(clientId: string, discoveryId: string, nowMs: number): Promise<DiscoveryRecord | undefined>;
  put(record: DiscoveryRecord): Promise<void>;
  /**
   * Counts one discovery for the client on a UTC day (`YYYY-MM-DD`) unless `max` are counted already:
   * one atomic conditional add. False when the day is used up.
   */
  countOne(clientId: string, day: string, max: number, expiresAt: number): Promise<boolean>;
}
