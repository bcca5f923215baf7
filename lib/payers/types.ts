/** The payer directory's domain types (docs/api.md#payer-directory). */

export type TransactionSupport = 'SUPPORTED' | 'NOT_SUPPORTED' | 'ENROLLMENT_REQUIRED';

/** The two transactions this service sends, as the directory's `transaction` filter names them. */
export type Transaction = 'eligibility' | 'cob';
export const TRANSACTIONS: readonly Transaction[] = ['eligibility', 'cob'];

/** One payer as the API answers it: keys in this order; `stediId` only when the directory gives one. */
export interface Payer {
  payerId: string;
  name: string;
  aliases: string[];
  stediId?: string;
  coverageTypes: string[];
  states: string[];
  transactions: Record<Transaction, TransactionSupport>;
}

export interface PayerPage {
  payers: Payer[];
  nextPageToken?: string;
}

export interface PayerSearch {
  q?: string;
  transaction?: Transaction;
  pageSize: number;
  pageToken?: string;
}

/**
 * One record of the clearinghouse's payer directory, as the clearinghouse port returns it
 * (lib/runtime/clearinghouse.ts); `payerFromStedi` makes it a {@link Payer}.
 */
export interface DirectoryRecord {
  stediId?: string;
  displayName: string;
  primaryPayerId: string;
  aliases: string[];
  names?: string[];
  coverageTypes?: string[];
  operatingStates?: string[];
  transactionSupport?: { eligibilityCheck?: TransactionSupport; coordinationOfBenefits?: TransactionSupport } & Record<string, unknown>;
}

/** A search of the clearinghouse's directory: the transaction filters ask for `SUPPORTED`. */
export interface DirectorySearch {
  query?: string;
  eligibilityCheck?: 'SUPPORTED';
  coordinationOfBenefits?: 'SUPPORTED';
  pageSize?: number;
  pageToken?: string;
}

export interface DirectoryPage {
  items: DirectoryRecord[];
  nextPageToken?: string;
}
