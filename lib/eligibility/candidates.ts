/**
 * Which of the patient's EB rows may fill a figure: the drop rules of docs/eligibility.md#candidates
 * (later plan sections, date of service, filler amounts, procedure rows, Part A beside Part B), and
 * whether the figures are Original Medicare's (no family level).
 */
import { ACTIVE, PART_A, PART_B, type BenefitRow } from './benefit-row.js';
import { periodDates } from './dates.js';

export interface Selection {
  /** Rows no rule drops, EB13 procedure rows excluded: the plan-wide slots and `benefits` use these. */
  candidates: BenefitRow[];
  /** EB13 rows no other rule drops: `procedures` uses these. */
  procedureRows: BenefitRow[];
  /** Original Medicare: every family slot is N/A (docs/eligibility.md#original-medicare). */
  noFamily: boolean;
}

const lists = (row: BenefitRow, code: string): boolean => row.services.includes(code);

/** Index of the first row of a later plan section (docs/eligibility.md#later-plan-sections), or rows.length. */
export function planSectionEnd(rows: readonly BenefitRow[]): number {
  let name: string | undefined;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.status !== ACTIVE || !lists(row, '30')) continue;
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
export function isFiller(amount: string): boolean {
  const value = amount.trim();
  let i = value.charCodeAt(0) === 43 ? 1 : 0;
  let nines = 0;
  for (; i < value.length && value.charCodeAt(i) === 57; i++) nines++;
  if (nines < 5) return false;
  if (i === value.length) return true;
  if (value.charCodeAt(i) !== 46) return false;
  for (i++; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

const sameGroup = (a: BenefitRow, b: BenefitRow): boolean => a.info === b.info && a.level === b.level && a.network === b.network;

/** The drop rules, in the order docs/eligibility.md#candidates gives them. `date` is CCYYMMDD. */
export function selectRows(rows: readonly BenefitRow[], date: string | undefined): Selection {
  const end = planSectionEnd(rows);
  const kept: BenefitRow[] = [];
  let partB = false;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.medicare === PART_B) partB = true;
    if (i < end && (date === undefined || coversDate(row, date))) kept.push(row);
  }
  // A filler drops its row and every row of the same EB01, EB02 and EB12 (the limit's accumulators).
  let fillers: BenefitRow[] | undefined;
  for (let i = 0; i < kept.length; i++) {
    const row = kept[i]!;
    if (row.amount !== '' && isFiller(row.amount)) (fillers ??= []).push(row);
  }
  const candidates: BenefitRow[] = [];
  const procedureRows: BenefitRow[] = [];
  for (let i = 0; i < kept.length; i++) {
    const row = kept[i]!;
    if (partB && row.medicare === PART_A) continue;
    if (fillers !== undefined && fillers.some((filler) => sameGroup(filler, row))) continue;
    (row.hasProcedure ? procedureRows : candidates).push(row);
  }
  return { candidates, procedureRows, noFamily: isOriginalMedicare(rows) };
}

/** The patient's EB01 1–5 rows that carry an EB04 (at least one) all say MA or MB. */
export function isOriginalMedicare(rows: readonly BenefitRow[]): boolean {
  let typed = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.status !== ACTIVE || row.insuranceType === '') continue;
    if (row.medicare === 0) return false;
    typed++;
  }
  return typed > 0;
}
