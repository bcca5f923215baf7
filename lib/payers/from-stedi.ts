import type { DirectoryRecord, Payer, TransactionSupport } from './types.js';

/**
 * A directory record as this API answers it. A transaction the record does not mention is
 * reported NOT_SUPPORTED (the directory lists every transaction it supports for a payer).
 */
export function payerFromStedi(record: DirectoryRecord): Payer {
  const support = record.transactionSupport ?? {};
  const flag = (value: TransactionSupport | undefined): TransactionSupport => value ?? 'NOT_SUPPORTED';
  const payer: Payer = {
    payerId: record.primaryPayerId,
    name: record.displayName,
    aliases: record.aliases,
  } as Payer;
  if (record.stediId) payer.stediId = record.stediId;
  payer.coverageTypes = record.coverageTypes ?? [];
  payer.states = record.operatingStates ?? [];
  payer.transactions = { eligibility: flag(support.eligibilityCheck), cob: flag(support.coordinationOfBenefits) };
  return payer;
}

/** Whether `id` names this payer: its primary id, an alias or its Stedi id (case and spaces aside). */
export function payerHasId(payer: Payer, id: string): boolean {
  const wanted = id.trim().toUpperCase();
  return [payer.payerId, ...payer.aliases, ...(payer.stediId ? [payer.stediId] : [])].some((known) => known.trim().toUpperCase() === wanted);
}
