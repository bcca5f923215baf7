/** One row of the sandbox payer directory (./payer-list.ts). */

export type Support = 'SUPPORTED' | 'NOT_SUPPORTED' | 'ENROLLMENT_REQUIRED';
export type Coverage = 'medical' | 'dental' | 'vision';

export interface SandboxPayerRow {
  name: string;
  payerId: string;
  stediId?: string;
  aliases?: string[];
  coverage: Coverage[];
  states?: string[];
  eligibility: Support;
  cob: Support;
  /** Read from Stedi's Payer Network (./payer-network.ts). */
  network?: true;
}
