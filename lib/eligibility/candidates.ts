/**
 * Which of the patient's EB rows may fill a figure: the drop rules of docs/eligibility.md#candidates
 * (later plan sections, date of service, filler amounts, aggregate placeholders, procedure rows,
 * Part A beside Part B), and
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
function planSectionEnd(rows: readonly BenefitRow[]): number {
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
function coversDate(row: BenefitRow, date: string): boolean {
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

/** EB01 F: a limitation. A filler amount on it drops only the amount (docs/eligibility.md#limitations), never the row. */
const LIMITATION = 'F';
const isFillerRow = (row: BenefitRow): boolean => row.info !== LIMITATION && row.amount !== '' && isFiller(row.amount);

/** EB01 C and G: the accumulators whose individual `0 W` rows can be placeholders. */
const ACCUMULATORS: ReadonlySet<string> = new Set(['C', 'G']);
const INDIVIDUAL_LEVELS: ReadonlySet<string> = new Set(['IND', 'EMP', '']);
const FAMILY_LEVEL = 'FAM';
const BOTH_NETWORKS = 'W';

/**
 * An individual C/G row of EB07 0 and EB12 W beside a family row of the same EB01 with an amount
 * above 0: a non-embedded (HSA) limit's "no separate individual limit", not $0
 * (docs/eligibility.md#aggregate-placeholders).
 */
function placeholders(rows: readonly BenefitRow[]): ReadonlySet<BenefitRow> {
  let out: Set<BenefitRow> | undefined;
  for (const row of rows) {
    if (!ACCUMULATORS.has(row.info) || !INDIVIDUAL_LEVELS.has(row.level) || row.network !== BOTH_NETWORKS) continue;
    if (row.exactAmount?.units !== 0n) continue;
    const familyAmount = (other: BenefitRow) => other.info === row.info && other.level === FAMILY_LEVEL && (other.exactAmount?.units ?? 0n) > 0n;
    if (!rows.some(familyAmount)) continue;
    out ??= new Set();
    out.add(row);
  }
  return out ?? NO_ROWS;
}

const NO_ROWS: ReadonlySet<BenefitRow> = new Set();

/** The drop rules, in the order docs/eligibility.md#candidates gives them. `date` is CCYYMMDD. */
export function selectRows(rows: readonly BenefitRow[], date: string | undefined): Selection {
  const end = planSectionEnd(rows);
  const kept: BenefitRow[] = [];
  for (let i = 0; i < end; i++) if (date === undefined || coversDate(rows[i]!, date)) kept.push(rows[i]!);
  // A filler drops its row and every row of the same EB01, EB02 and EB12 (the limit's accumulators).
  const fillers = kept.filter(isFillerRow);
  const partB = rows.some(isPartB);
  const dropped = placeholders(kept);
  const candidates: BenefitRow[] = [];
  const procedureRows: BenefitRow[] = [];
  for (const row of kept) {
    if ((partB && isPartA(row)) || dropped.has(row) || fillers.some((filler) => sameGroup(filler, row))) continue;
    (row.hasProcedure ? procedureRows : candidates).push(row);
  }
  return { candidates, procedureRows, noFamily: isOriginalMedicare(rows) };
}

/** The patient's EB01 1–5 rows that carry an EB04 (at least one) all say MA or MB. */
function isOriginalMedicare(rows: readonly BenefitRow[]): boolean {
  const typed = rows.filter((row) => isActive(row) && row.insuranceType !== '');
  return typed.length > 0 && typed.every(isMedicare);
}
