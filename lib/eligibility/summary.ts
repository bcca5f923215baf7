/**
 * From candidate EB rows to the in/out-of-network blocks: each of the 24 slots is filled on its own
 * by the best fitting row (slots.ts, docs/eligibility.md#filling-a-slot), remaining figures as
 * docs/eligibility.md#remaining says. Rows arrive already selected (candidates.ts); this module
 * only asks for the winners and takes their figures, as numbers (figures.ts).
 */
import { isActive, isInactive, type BenefitRow, type Field } from './benefit-row.js';
import { NOT_KNOWN, noFigures, toCents, type Block, type Blocks, type LevelFigures, type Money, type Rate } from './figures.js';
import { max, subtract, ZERO } from './format.js';
import { bestRow, type Level, type Network, type Slot, type TimeRule } from './slots.js';
import type { CoverageStatus } from './types.js';

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
}

type SlotTable = Record<Network, Record<Level, LevelSlots>>;

function slotTable(rankService: boolean): SlotTable {
  const level = (network: Network, level: Level): LevelSlots => {
    const slot = (field: Field, time: TimeRule): Slot => ({ field, network, level, time, rankService });
    const accumulator = (field: Field): AccumulatorSlots => ({ total: slot(field, TOTAL_TIME), left: slot(field, REMAINING), used: slot(field, YEAR_TO_DATE) });
    return {
      copay: slot('copay', ANY_TIME),
      coinsurance: slot('coinsurance', ANY_TIME),
      deductible: accumulator('deductible'),
      stopLoss: accumulator('stopLoss'),
    };
  };
  return {
    in: { individual: level('in', 'individual'), family: level('in', 'family') },
    out: { individual: level('out', 'individual'), family: level('out', 'family') },
  };
}

/** The slots, built once at load (constants): plan-wide blocks rank EB03, a service or procedure entry's do not. */
const SLOTS: Readonly<Record<'plan' | 'entry', SlotTable>> = { plan: slotTable(true), entry: slotTable(false) };

/** No row gives any figure (a service listed only on coverage rows): every slot is N/A. */
const noRows = (rows: FieldRows): boolean => rows.copay.length + rows.coinsurance.length + rows.deductible.length + rows.stopLoss.length === 0;

function figures(rows: FieldRows, network: Network, level: Level, rules: BlockRules): LevelFigures {
  if ((level === 'family' && rules.noFamily) || noRows(rows)) return noFigures();
  const table = SLOTS[rules.rankService ? 'plan' : 'entry'][network];
  const slots = table[level];
  const deductibleTotal = bestRow(rows.deductible, slots.deductible.total);
  const stopLossTotal = bestRow(rows.stopLoss, slots.stopLoss.total);
  return {
    copay: moneyOf(costShare(rows.copay, slots.copay, table.family.copay)),
    deductible: { total: moneyOf(deductibleTotal), remaining: remaining(rows.deductible, deductibleTotal, slots.deductible) },
    coinsurance: rateOf(costShare(rows.coinsurance, slots.coinsurance, table.family.coinsurance)),
    stopLoss: moneyOf(stopLossTotal),
    stopLossRemaining: remaining(rows.stopLoss, stopLossTotal, slots.stopLoss),
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
