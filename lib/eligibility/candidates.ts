/**
 * Which of the patient's EB rows may fill a figure: the drop rules of docs/eligibility.md#candidates
 * (later plan sections, date of service, filler amounts, procedure rows, Part A beside Part B), and
 * whether the figures are Original Medicare's (no family level).
 */
import { isActive, isMedicare, isPartA, isPartB, lists, type BenefitRow } from './benefit-row.js';
import { periodDates } from './dates.js';

export interface Selection {
  /** Rows no rule drops, EB13 procedure rows excluded: the plan-wide slots and `benefits` use these. */
  candidates: BenefitRow[];
  /** EB13 rows no other rule drops: `procedures` uses these. */
  procedureRows: BenefitRow[];
  /** Original Medicare: every family slot is N/A (docs/eligibility.md#original-medicare). */
  noFamily: boolean;
}

/** Index of the first row of a later plan section (docs/eligibility.md#later-plan-sections), or rows.length. */
export function planSectionEnd(rows: readonly BenefitRow[]): number {
  let name: string | undefined;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (!isActive(row) || !lists(row, '30')) continue;
    const own = row.planName.trim().toUpperCase();
    if (name === undefined) name = own;
    else if (own !== '' && own !== name) return i;
  }
  return rows.length;
}

/** DTP qualifiers that bound the dates a row applies to; D8 begins for these, ends for 347/349. */
const BEGIN_QUALIFIERS: ReadonlySet<string> = new Set(['291', '292', '346', '348', '435']);
const END_QUALIFIERS: ReadonlySet<string> = new Set(['347', '349']);

/** Whether the row's own DTPs allow the date of service (CCYYMMDD); rows without such DTPs do. */
export function coversDate(row: BenefitRow, date: string): boolean {
  const dates = row.dates;
  for (let i = 0; i < dates.length; i++) {
    const period = dates[i]!;
    const begins = BEGIN_QUALIFIERS.has(period.qualifier);
    if (!begins && !END_QUALIFIERS.has(period.qualifier)) continue;
    const read = periodDates(period);
    if (read === undefined) continue;
    if ('single' in read) {
      if (begins ? date < read.single : date > read.single) return false;
    } else if (date < read.begin || date > read.end) return false;
  }
  return true;
}

/** EB07 whose integer part is five or more 9s: "no limit / not applicable", not a figure. */
export const isFiller = (amount: string): boolean => /^\+?9{5,}(\.[0-9]*)?$/.test(amount.trim());

const sameGroup = (a: BenefitRow, b: BenefitRow): boolean => a.info === b.info && a.level === b.level && a.network === b.network;

/** The drop rules, in the order docs/eligibility.md#candidates gives them. `date` is CCYYMMDD. */
export function selectRows(rows: readonly BenefitRow[], date: string | undefined): Selection {
  const end = planSectionEnd(rows);
  const kept = rows.filter((row, i) => i < end && (date === undefined || coversDate(row, date)));
  // A filler drops its row and every row of the same EB01, EB02 and EB12 (the limit's accumulators).
  const fillers = kept.filter((row) => row.amount !== '' && isFiller(row.amount));
  const partB = rows.some(isPartB);
  const survivors = kept.filter((row) => !(partB && isPartA(row)) && !fillers.some((filler) => sameGroup(filler, row)));
  return {
    candidates: survivors.filter((row) => !row.hasProcedure),
    procedureRows: survivors.filter((row) => row.hasProcedure),
    noFamily: isOriginalMedicare(rows),
  };
}

/** The patient's EB01 1–5 rows that carry an EB04 (at least one) all say MA or MB. */
export function isOriginalMedicare(rows: readonly BenefitRow[]): boolean {
  const typed = rows.filter((row) => isActive(row) && row.insuranceType !== '');
  return typed.length > 0 && typed.every(isMedicare);
}
