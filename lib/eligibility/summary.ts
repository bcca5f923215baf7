/**
 * From candidate EB rows to figures (docs/eligibility.md#filling-a-slot): which row fills each of the 24
 * slots of the in/out-of-network blocks, the remaining figures (docs/eligibility.md#remaining), coverage
 * status. Rows arrive already selected (candidates.ts); figures are numbers (figures.ts). Two sections,
 * in reading order: which row wins a slot, the blocks. A `benefits` entry's limitations are limitations.ts.
 */
import { type BenefitRow, type Field, isActive, isInactive, isPartB } from './benefit-row.js';
import { type Block, type Blocks, type LevelFigures, type Money, noFigures, NOT_KNOWN, type Rate, toCents } from './figures.js';
import { max, subtract, ZERO } from './format.js';
import type { CoverageStatus } from './types.js';
import { perOccurrenceOf, perOccurrenceRows } from './per-occurrence.js';

/*
 * Which row fills a slot (docs/eligibility.md#filling-a-slot): a slot asks for one field, network
 * and level (and, for totals and remaining figures, a time period); the rows that fit it are
 * compared by the named criteria of BEST_ROW, in order, and the first row wins.
 */

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
  /** The code that ranks as 30: 30, or 35 / AL for a dental- or vision-only plan (docs/eligibility.md#dental-and-vision-only-plans). */
  planCode: PlanCode;
}

/** 30 (health benefit plan coverage), 35 (dental care) or AL (vision). */
export type PlanCode = '30' | '35' | 'AL';

/** A row's rank under one criterion (lower is better), or undefined when the row does not fit the slot. */
type Rank = (row: BenefitRow, slot: Slot) => number | undefined;

/** The value's position in the preference list, or undefined when it is not listed. */
const position = (preference: readonly string[], value: string): number | undefined => {
  const at = preference.indexOf(value);
  return at < 0 ? undefined : at;
};

/** EB03 codes by preference ('' is a row listing none). */
const SERVICE_PREFERENCE: Readonly<Record<Field, readonly string[]>> = {
  copay: ['30', '98', 'BY', 'BZ', '', '1'],
  coinsurance: ['30', '98', 'BY', 'BZ', '', '1'],
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

/**
 * The best EB03 code a row lists; on a Part B row 96 ranks as 30 (CMS reports the Part B deductible
 * under 96), and on a dental- or vision-only plan its code (35, AL) does.
 */
const serviceRank: Rank = (row, slot) => {
  if (!slot.rankService) return 0;
  const preference = SERVICE_PREFERENCE[slot.field];
  if (row.services.length === 0) return position(preference, '');
  let best: number | undefined;
  for (const listed of row.services) {
    const asPlan = listed === slot.planCode || (listed === '96' && isPartB(row));
    const rank = position(preference, asPlan ? '30' : listed);
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

/*
 * From candidate EB rows to the in/out-of-network blocks: each of the 24 slots is filled on its own
 * by the best fitting row (above, docs/eligibility.md#filling-a-slot), remaining figures as
 * docs/eligibility.md#remaining says. Rows arrive already selected (candidates.ts); this module
 * only asks for the winners and takes their figures, as numbers (figures.ts).
 */

/** Candidate rows per field. */
export type FieldRows = Record<Field, BenefitRow[]>;

/** The rows grouped by the field each fills (rows that fill none are left out). */
export function rowsByField(rows: readonly BenefitRow[]): FieldRows {
  const out: FieldRows = { copay: [], coinsurance: [], deductible: [], stopLoss: [] };
  for (const row of rows) if (row.field) out[row.field].push(row);
  return out;
}

/** How the blocks are computed: plan-wide (EB03 ranked) or for one service/procedure (EB03 already chosen). */
export interface BlockRules {
  rankService: boolean;
  /** The code that ranks as 30 plan-wide (default 30). */
  planCode?: PlanCode;
  /** Original Medicare: every family slot is N/A. */
  noFamily: boolean;
}

const ANY_TIME: TimeRule = { kind: 'any' };
const TOTAL_TIME: TimeRule = { kind: 'total' };
/** EB06 29 (remaining) and 24 (year to date). */
const REMAINING: TimeRule = { kind: 'exactly', code: '29' };
const YEAR_TO_DATE: TimeRule = { kind: 'exactly', code: '24' };

/** A winning row's EB07 as money (rounded to the cent), NOT_KNOWN without a row. */
const moneyOf = (row: BenefitRow | undefined): Money => (row?.exactAmount === undefined ? NOT_KNOWN : toCents(row.exactAmount));
/** A winning row's EB08 as a rate, NOT_KNOWN without a row. */
const rateOf = (row: BenefitRow | undefined): Rate => (row === undefined ? NOT_KNOWN : row.rate);

/**
 * Remaining (docs/eligibility.md#remaining): the best EB06 29 row; else the total minus the best
 * EB06 24 row, floored at 0, on the exact amounts (only the result is rounded); else $0.00 when the
 * total is exactly 0; else not known.
 */
function remaining(rows: readonly BenefitRow[], total: BenefitRow | undefined, slots: AccumulatorSlots): Money {
  const left = bestRow(rows, slots.left);
  if (left) return moneyOf(left);
  const totalValue = total?.exactAmount;
  if (totalValue === undefined) return NOT_KNOWN;
  const used = bestRow(rows, slots.used)?.exactAmount;
  if (used) return toCents(max(subtract(totalValue, used), ZERO));
  return totalValue.units === 0n ? toCents(totalValue) : NOT_KNOWN;
}

/**
 * Copay and coinsurance are per person, not accumulators (docs/eligibility.md#cost-shares-are-per-person):
 * with no individual-level row, the row that fills the family slot fills the individual one too.
 */
function costShare(rows: readonly BenefitRow[], slot: Slot, familySlot: Slot): BenefitRow | undefined {
  const own = bestRow(rows, slot);
  return own !== undefined || slot === familySlot ? own : bestRow(rows, familySlot);
}

/** A deductible or stopLoss slot: its total, and the EB06 29 (left) and 24 (used) slots of its remaining figure. */
interface AccumulatorSlots {
  total: Slot;
  left: Slot;
  used: Slot;
}

/** Every slot of one level of one network. */
interface LevelSlots {
  copay: Slot;
  coinsurance: Slot;
  deductible: AccumulatorSlots;
  stopLoss: AccumulatorSlots;
  /** A per-visit, per-episode or per-admission deductible (docs/eligibility.md#per-visit-deductibles). */
  perOccurrence: Slot;
}

type SlotTable = Record<Network, Record<Level, LevelSlots>>;

function slotTable(rankService: boolean, planCode: PlanCode): SlotTable {
  const level = (network: Network, level: Level): LevelSlots => {
    const slot = (field: Field, time: TimeRule): Slot => ({ field, network, level, time, rankService, planCode });
    const accumulator = (field: Field): AccumulatorSlots => ({ total: slot(field, TOTAL_TIME), left: slot(field, REMAINING), used: slot(field, YEAR_TO_DATE) });
    return {
      copay: slot('copay', ANY_TIME),
      coinsurance: slot('coinsurance', ANY_TIME),
      deductible: accumulator('deductible'),
      stopLoss: accumulator('stopLoss'),
      perOccurrence: slot('deductible', ANY_TIME),
    };
  };
  return {
    in: { individual: level('in', 'individual'), family: level('in', 'family') },
    out: { individual: level('out', 'individual'), family: level('out', 'family') },
  };
}

/** The slots, built once at load (constants): plan-wide blocks rank EB03 (30, or a dental or vision plan's code), a service or procedure entry's do not. */
const SLOTS: Readonly<Record<PlanCode | 'entry', SlotTable>> = {
  '30': slotTable(true, '30'),
  '35': slotTable(true, '35'),
  AL: slotTable(true, 'AL'),
  entry: slotTable(false, '30'),
};

/** No row gives any figure (a service listed only on coverage rows): every slot is N/A. */
const noRows = (rows: FieldRows): boolean => rows.copay.length + rows.coinsurance.length + rows.deductible.length + rows.stopLoss.length === 0;

function figures(rows: FieldRows, network: Network, level: Level, rules: BlockRules): LevelFigures {
  if ((level === 'family' && rules.noFamily) || noRows(rows)) return noFigures();
  const table = SLOTS[rules.rankService ? (rules.planCode ?? '30') : 'entry'][network];
  const slots = table[level];
  const deductibleTotal = bestRow(rows.deductible, slots.deductible.total);
  const stopLossTotal = bestRow(rows.stopLoss, slots.stopLoss.total);
  return {
    copay: moneyOf(costShare(rows.copay, slots.copay, table.family.copay)),
    deductible: { total: moneyOf(deductibleTotal), remaining: remaining(rows.deductible, deductibleTotal, slots.deductible) },
    coinsurance: rateOf(costShare(rows.coinsurance, slots.coinsurance, table.family.coinsurance)),
    stopLoss: moneyOf(stopLossTotal),
    stopLossRemaining: remaining(rows.stopLoss, stopLossTotal, slots.stopLoss),
    ...perOccurrenceOf(bestRow(perOccurrenceRows(rows.deductible, rules.rankService), slots.perOccurrence)),
  };
}

function block(rows: FieldRows, network: Network, rules: BlockRules): Block {
  return { individual: figures(rows, network, 'individual', rules), family: figures(rows, network, 'family', rules) };
}

/** The in- and out-of-network blocks over these rows. */
export function blocks(rows: FieldRows, rules: BlockRules): Blocks {
  return { inNetwork: block(rows, 'in', rules), outNetwork: block(rows, 'out', rules) };
}

/** Active if any EB01 is 1–5; else Inactive if any is 6–8; else Unknown. */
export function coverageStatusOf(rows: readonly BenefitRow[]): CoverageStatus {
  if (rows.some(isActive)) return 'Active';
  return rows.some(isInactive) ? 'Inactive' : 'Unknown';
}
