/** The payer directory's domain types (docs/api.md#payer-directory); the answers' are derived from lib/validation/responses/payers.ts. */
import type { FromSchema } from 'json-schema-to-ts';
import { type payerPageSchema, type payerSchema, TRANSACTIONS as ALL_TRANSACTIONS } from '../validation/index.js';

/** One payer as the API answers it: keys in this order; `stediId` only when the directory gives one. */
export type Payer = FromSchema<typeof payerSchema>;

export type PayerPage = FromSchema<typeof payerPageSchema>;

export type TransactionSupport = Payer['transactions']['eligibility'];

/** The two transactions this service sends, as the directory's `transaction` filter names them. */
export type Transaction = (typeof ALL_TRANSACTIONS)[number];
export const TRANSACTIONS: readonly Transaction[] = ALL_TRANSACTIONS;

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
