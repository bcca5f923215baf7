import { COVERAGE_TYPES } from '../validation/index.js';
import type { DirectoryRecord, Payer, TransactionSupport } from './types.js';

type CoverageType = Payer['coverageTypes'][number];
const isCoverageType = (value: string): value is CoverageType => (COVERAGE_TYPES as readonly string[]).includes(value);

/**
 * A directory record as this API answers it. A transaction the record does not mention is
 * reported NOT_SUPPORTED (the directory lists every transaction it supports for a payer). A coverage type
 * outside the documented three is left out rather than answered against the schema.
 */
export function payerFromStedi(record: DirectoryRecord): Payer {
  const support = record.transactionSupport ?? {};
  const flag = (value: TransactionSupport | undefined): TransactionSupport => value ?? 'NOT_SUPPORTED';
  return {
    payerId: record.primaryPayerId,
    name: record.displayName,
    aliases: record.aliases,
    ...(record.stediId ? { stediId: record.stediId } : {}),
    coverageTypes: (record.coverageTypes ?? []).filter(isCoverageType),
    states: record.operatingStates ?? [],
    transactions: { eligibility: flag(support.eligibilityCheck), cob: flag(support.coordinationOfBenefits) },
  };
}

/** Whether `id` names this payer: its primary id, an alias or its Stedi id (case and spaces aside). */
export function payerHasId(payer: Payer, id: string): boolean {
  const wanted = id.trim().toUpperCase();
  return [payer.payerId, ...payer.aliases, ...(payer.stediId ? [payer.stediId] : [])].some((known) => known.trim().toUpperCase() === wanted);
}
