/**
 * Per-visit, per-episode and per-admission deductibles (docs/eligibility.md#per-visit-deductibles): an
 * EB01 C row whose EB06 is 26 (episode), 27 (visit) or 36 (admission) is charged each time, not against
 * the yearly deductible, so it fills no deductible slot (the slots' time rules never take these codes) and
 * shows as `perOccurrenceDeductible` in the level object of its network. Which row wins a level is
 * summary.ts's comparison; this module says which rows qualify and what they give.
 */
import { type BenefitRow, HEALTH_PLAN, lists } from './benefit-row.js';
import { toCents, type PerOccurrenceDeductible } from './figures.js';
import type { Occurrence } from '../validation/index.js';

/** EB06 of a per-occurrence deductible → the `per` the answer shows. */
export const PER_OCCURRENCE: Readonly<Record<string, Occurrence>> = { '26': 'Episode', '27': 'Visit', '36': 'Admission' };

const DEDUCTIBLE = 'C';
const occurrenceOf = (row: BenefitRow): Occurrence | undefined => (Object.hasOwn(PER_OCCURRENCE, row.timePeriod) ? PER_OCCURRENCE[row.timePeriod] : undefined);

/**
 * The deductible rows that are charged per occurrence and carry an amount. Plan-wide blocks take only the
 * rows that list 30; a service's or procedure's rows are already those of its code.
 */
export const perOccurrenceRows = (deductibleRows: readonly BenefitRow[], planWide: boolean): BenefitRow[] =>
  deductibleRows.filter(
    (row) => row.info === DEDUCTIBLE && row.exactAmount !== undefined && occurrenceOf(row) !== undefined && (!planWide || lists(row, HEALTH_PLAN)),
  );

/** The winning row's figure, or nothing. */
export function perOccurrenceOf(row: BenefitRow | undefined): { perOccurrenceDeductible: PerOccurrenceDeductible } | undefined {
  const per = row === undefined ? undefined : occurrenceOf(row);
  return row?.exactAmount === undefined || per === undefined ? undefined : { perOccurrenceDeductible: { amount: toCents(row.exactAmount), per } };
}
