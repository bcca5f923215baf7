/**
 * What an insurance discovery answers (docs/finding-coverage.md#insurance-discovery): one coverage
 * per plan found, each with the eligibility answer the one 271 reader built for it.
 */
import type { EligibilityBody } from '../eligibility/types.js';
import type { ErrorBody } from '../http/response.js';

export type DiscoveryStatus = 'PENDING' | 'COMPLETE';

export interface Coverage {
  payerId: string;
  payerName: string;
  memberId: string;
  groupNumber?: string;
  /** The eligibility answer's coverageStatus; Unknown when the check for it failed. */
  coverageStatus: 'Active' | 'Inactive' | 'Unknown';
  /** The eligibility answer for this coverage, or the error body of its check. */
  eligibility: EligibilityBody | ErrorBody;
}

/** The answer of POST and GET: coverages once COMPLETE. */
export interface DiscoveryAnswer {
  discoveryId: string;
  status: DiscoveryStatus;
  coverages?: Coverage[];
}

/** What a plan found looks like once read from the clearinghouse's answer (./from-stedi.ts). */
export interface FoundCoverage {
  payerName: string;
  /** The payer id the clearinghouse gave, when it gave one. */
  payerId?: string;
  memberId?: string;
  groupNumber?: string;
  /** The payer's raw 271, when the clearinghouse's result carries it. */
  x12?: string;
}

/** The clearinghouse's discovery, read. */
export interface UpstreamDiscovery {
  upstreamId: string;
  status: DiscoveryStatus;
  found: FoundCoverage[];
}
