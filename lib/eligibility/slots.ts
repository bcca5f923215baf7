/**
 * Which row fills a slot (docs/eligibility.md#filling-a-slot): a slot asks for one field, network
 * and level (and, for totals and remaining figures, a time period); the rows that fit it are
 * compared by the named criteria of BEST_ROW, in order, and the first row wins.
 */
import { isPartB, type BenefitRow, type Field } from './benefit-row.js';

export type Network = 'in' | 'out';
export type Level = 'individual' | 'family';

/** EB06 for the slot: ignored (copay, coinsurance), the totals' preference, or exactly one code (remaining figures). */
export type TimeRule = { kind: 'any' } | { kind: 'total' } | { kind: 'exactly'; code: string };

export interface Slot {
  field: Field;
  network: Network;
  level: Level;
  time: TimeRule;
  /** Plan-wide blocks rank EB03; a service or procedure entry's rows are already chosen by code. */
  rankService: boolean;
}

/** A row's rank under one criterion (lower is better), or undefined when the row does not fit the slot. */
type Rank = (row: BenefitRow, slot: Slot) => number | undefined;

/** The value's position in the preference list, or undefined when it is not listed. */
const position = (preference: readonly string[], value: string): number | undefined => {
  const at = preference.indexOf(value);
  return at < 0 ? undefined : at;
};

/** EB03 codes by preference ('' is a row listing none). */
const SERVICE_PREFERENCE: Readonly<Record<Field, readonly string[]>> = {
  copay: ['30', '98', '', '1'],
  coinsurance: ['30', '98', '', '1'],
  deductible: ['30', '', '1'],
  stopLoss: ['30', '', '1'],
};
/** EB06 for totals: calendar year, service year, contract, remaining-period… then none. */
const TOTAL_TIME_PREFERENCE: readonly string[] = ['23', '22', '21', '25', ''];
/** EB12 per network: the network's own code before "both" (W), "unknown" (U) and none. */
const NETWORK_PREFERENCE: Readonly<Record<Network, Readonly<Record<string, number>>>> = {
  in: { Y: 0, W: 1, U: 1, '': 1 },
  out: { N: 0, W: 1, U: 1, '': 1 },
};
/** EB02 per level; an empty EB02 is family only for the per-person cost shares. */
const LEVEL_PREFERENCE: Readonly<Record<Level, Readonly<Record<Field, readonly string[]>>>> = {
  individual: { copay: ['IND', 'EMP', ''], coinsurance: ['IND', 'EMP', ''], deductible: ['IND', 'EMP', ''], stopLoss: ['IND', 'EMP', ''] },
  family: { copay: ['FAM', ''], coinsurance: ['FAM', ''], deductible: ['FAM'], stopLoss: ['FAM'] },
};

/** The best EB03 code a row lists; on a Part B row 96 ranks as 30 (CMS reports the Part B deductible under 96). */
const serviceRank: Rank = (row, slot) => {
  if (!slot.rankService) return 0;
  const preference = SERVICE_PREFERENCE[slot.field];
  if (row.services.length === 0) return position(preference, '');
  let best: number | undefined;
  for (const listed of row.services) {
    const rank = position(preference, listed === '96' && isPartB(row) ? '30' : listed);
    if (rank !== undefined && (best === undefined || rank < best)) best = rank;
  }
  return best;
};

const timeRank: Rank = (row, slot) => {
  const time = slot.time;
  if (time.kind === 'any') return 0;
  if (time.kind === 'total') return position(TOTAL_TIME_PREFERENCE, row.timePeriod);
  return row.timePeriod === time.code ? 0 : undefined;
};

const networkRank: Rank = (row, slot) => {
  const ranks = NETWORK_PREFERENCE[slot.network];
  return Object.hasOwn(ranks, row.network) ? ranks[row.network] : undefined;
};

/** IND/FAM before EMP before empty (the family list has no EMP). */
const levelRank: Rank = (row, slot) => position(LEVEL_PREFERENCE[slot.level][slot.field], row.level);

/** "Best" compares, in this order (docs/eligibility.md#filling-a-slot). */
const BEST_ROW: readonly { criterion: string; rank: Rank }[] = [
  { criterion: 'service (EB03)', rank: serviceRank },
  { criterion: 'time period (EB06)', rank: timeRank },
  { criterion: 'network (EB12)', rank: networkRank },
  { criterion: 'level (EB02)', rank: levelRank },
  { criterion: 'document order', rank: (row) => row.order },
];

/** Whether the row fits the slot: every criterion ranks it. */
function fits(row: BenefitRow, slot: Slot): boolean {
  for (const { rank } of BEST_ROW) if (rank(row, slot) === undefined) return false;
  return true;
}

/** Whether row a (which fits) is better than row b (which fits): the first criterion on which they differ decides. */
function better(a: BenefitRow, b: BenefitRow, slot: Slot): boolean {
  for (const { rank } of BEST_ROW) {
    const difference = rank(a, slot)! - rank(b, slot)!;
    if (difference !== 0) return difference < 0;
  }
  return false;
}

/** The best of the field's rows for the slot, if any fits. */
export function bestRow(rows: readonly BenefitRow[], slot: Slot): BenefitRow | undefined {
  let winner: BenefitRow | undefined;
  for (const row of rows) if (fits(row, slot) && (winner === undefined || better(row, winner, slot))) winner = row;
  return winner;
}
