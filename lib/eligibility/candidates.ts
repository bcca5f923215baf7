/**
 * Which of the patient's EB rows may fill a figure: the drop rules of docs/eligibility.md#candidates
 * (plan sections, date of service, filler amounts, "varied benefit" placeholders, procedure rows,
 * Part A beside Part B, aggregate placeholders), each over the rows the earlier ones kept, and
 * whether the figures are Original Medicare's (no family level).
 */
import { HEALTH_PLAN, isActive, isMedicare, isPartA, isPartB, lists, type BenefitRow } from './benefit-row.js';
import { periodDates } from './dates.js';
import type { PlanCode } from './summary.js';

export interface Selection {
  /** Rows no rule drops, EB13 procedure rows excluded: the plan-wide slots and `benefits` use these. */
  candidates: BenefitRow[];
  /** EB13 rows no other rule drops: `procedures` uses these. */
  procedureRows: BenefitRow[];
  /** Original Medicare: every family slot is N/A (docs/eligibility.md#original-medicare). */
  noFamily: boolean;
  /** 30, or 35 / AL when the plan is dental- or vision-only (docs/eligibility.md#dental-and-vision-only-plans). */
  planCode: PlanCode;
}

/** EB03 35 (dental care) and AL (vision): the codes of a dental- or vision-only plan. */
const SCOPE_CODES: readonly PlanCode[] = ['35', 'AL'];

/**
 * 35 or AL when no active candidate lists 30 and every one lists that code; else 30. A row listing 1
 * (medical care) is medical whatever else it lists (a medical row listing 35 and AL is no dental plan).
 */
function planCodeOf(candidates: readonly BenefitRow[]): PlanCode {
  const active = candidates.filter(isActive);
  if (active.length === 0 || active.some((row) => lists(row, HEALTH_PLAN) || lists(row, MEDICAL_CARE))) return HEALTH_PLAN;
  return SCOPE_CODES.find((code) => active.every((row) => lists(row, code))) ?? HEALTH_PLAN;
}

/** EB03 1: medical care. */
const MEDICAL_CARE = '1';

/** A plan section: the index of its opening row, and that row. */
interface Section {
  start: number;
  opening: BenefitRow;
}

/** How many distinct EB03 codes the rows from `start` to `end` list. */
function codesListed(rows: readonly BenefitRow[], start: number, end: number): number {
  const codes = new Set<string>();
  for (let i = start; i < end; i++) for (const code of rows[i]!.services) codes.add(code);
  return codes.size;
}

/**
 * The rows of the medical plan (docs/eligibility.md#plan-sections-by-what-they-cover): the first EB01
 * 1–5 row listing 30 opens a section, and so does each later one whose EB05 is non-empty and differs
 * from the section's name; a section runs to the next. The medical plan is the section whose opening
 * row lists 1, else the one whose rows list the most distinct EB03 codes, else the first. Rows before
 * the first section stay; the other sections' rows are dropped.
 */
function medicalSection(rows: readonly BenefitRow[]): (index: number) => boolean {
  const sections: Section[] = [];
  let name = '';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (!isActive(row) || !lists(row, HEALTH_PLAN)) continue;
    const own = row.planName.trim().toUpperCase();
    if (sections.length === 0 || (own !== '' && own !== name)) {
      sections.push({ start: i, opening: row });
      name = own;
    }
  }
  if (sections.length <= 1) return (): boolean => true;
  const endOf = (at: number): number => sections[at + 1]?.start ?? rows.length;
  let chosen = sections.findIndex((section) => lists(section.opening, MEDICAL_CARE));
  if (chosen < 0) {
    chosen = 0;
    let most = codesListed(rows, sections[0]!.start, endOf(0));
    for (let at = 1; at < sections.length; at++) {
      const listed = codesListed(rows, sections[at]!.start, endOf(at));
      if (listed > most) [chosen, most] = [at, listed];
    }
  }
  const before = sections[0]!.start;
  const start = sections[chosen]!.start;
  const end = endOf(chosen);
  return (i: number): boolean => i < before || (i >= start && i < end);
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

/**
 * EB07 999 or 999.99 on a row whose messages say VARIED or EVIDENCE OF COVERAGE: a "benefits vary"
 * placeholder, not a figure; only that row is dropped (docs/eligibility.md#varied-benefit-placeholders).
 */
const VARIED_AMOUNT = /^\+?999(\.9{1,2})?$/;
const VARIED_MESSAGE = /VARIED|EVIDENCE OF COVERAGE/i;
const isVariedPlaceholder = (row: BenefitRow): boolean => VARIED_AMOUNT.test(row.amount.trim()) && row.messages.some((text) => VARIED_MESSAGE.test(text));

/**
 * The drop rules, in the order docs/eligibility.md#candidates gives them, each over the rows the
 * earlier ones kept (docs/eligibility.md#rules-in-order): plan sections, date of service, filler
 * amounts (with their group), "varied benefit" placeholders, procedure rows aside, Part A beside
 * Part B, aggregate placeholders. `date` is CCYYMMDD.
 */
export function selectRows(rows: readonly BenefitRow[], date: string | undefined): Selection {
  const inSection = medicalSection(rows);
  const dated: BenefitRow[] = [];
  for (let i = 0; i < rows.length; i++) if (inSection(i) && (date === undefined || coversDate(rows[i]!, date))) dated.push(rows[i]!);
  // A filler drops its row and every row of the same EB01, EB02 and EB12 (the limit's accumulators).
  const fillers = dated.filter(isFillerRow);
  const figures = dated.filter((row) => !fillers.some((filler) => sameGroup(filler, row)) && !isVariedPlaceholder(row));
  const partB = figures.some(isPartB);
  const kept = partB ? figures.filter((row) => !isPartA(row)) : figures;
  const dropped = placeholders(kept);
  const candidates: BenefitRow[] = [];
  const procedureRows: BenefitRow[] = [];
  for (const row of kept) if (!dropped.has(row)) (row.hasProcedure ? procedureRows : candidates).push(row);
  return { candidates, procedureRows, noFamily: isOriginalMedicare(rows), planCode: planCodeOf(candidates) };
}

/** The patient's EB01 1–5 rows that carry an EB04 (at least one) all say MA or MB. */
function isOriginalMedicare(rows: readonly BenefitRow[]): boolean {
  const typed = rows.filter((row) => isActive(row) && row.insuranceType !== '');
  return typed.length > 0 && typed.every(isMedicare);
}
