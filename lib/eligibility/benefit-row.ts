/**
 * One EB of the patient's loop, read once into what CONTRACT §4.3 ranks it by. The segment's text
 * is walked in place: separators are found in one pass and every element the rules look at is
 * compared where it stands, so the only string an EB costs is its EB07 or EB08 when it can win.
 */
import { codesOf } from '../x12/scan.js';
import type { Delimiters, Segment } from '../x12/segment.js';

/** The four figures; the index into a summary's candidate lists. */
export const COPAY = 0;
export const COINSURANCE = 1;
export const DEDUCTIBLE = 2;
export const STOP_LOSS = 3;
/** The row feeds no figure (or is dropped: EB13 procedure, missing value, unfit EB03). */
export const NO_FIELD = -1;

/** EB01 1–5 and 6–8. */
export const NO_STATUS = 0;
export const ACTIVE = 1;
export const INACTIVE = 2;

/** EB04 Medicare Part A / Part B. */
export const PART_A = 1;
export const PART_B = 2;

/** EB06 that is not exactly two digits: '' is EMPTY_TIME, anything else OTHER_TIME. */
export const EMPTY_TIME = -1;
export const OTHER_TIME = -2;

export interface BenefitRow {
  /** Document order among the transaction's EBs. */
  order: number;
  status: number;
  medicare: number;
  field: number;
  /** Rank of EB03 for the row's field: 30, 98 (copay, coinsurance), none, 1. */
  service: number;
  /** EB06 as its two-digit value, EMPTY_TIME or OTHER_TIME. */
  time: number;
  /** Rank of EB06 for deductible totals and stop-loss (23, 22, 21, 25, empty), -1 when unfit. */
  total: number;
  /** Rank of EB12 in and out of network (Y/N before W/U/empty), -1 when unfit. */
  networkIn: number;
  networkOut: number;
  /** Rank of EB02 for individual (IND, EMP, empty) and family (FAM, empty for copay/coinsurance). */
  individual: number;
  family: number;
  /** EB07 (money) or EB08 (coinsurance) text; '' when the row feeds no figure. */
  value: string;
}

/** EB01 character code → field; single characters only. */
function fieldOf(code: number): number {
  switch (code) {
    case 66: // B
      return COPAY;
    case 65: // A
      return COINSURANCE;
    case 67: // C
      return DEDUCTIBLE;
    case 71: // G
      return STOP_LOSS;
  }
  return NO_FIELD;
}

/** Offsets of the first 14 element separators of the row being read (EB13 ends at the 14th). */
const cuts = new Int32Array(15);

/** Whether text[from, to) is an X12 decimal: blanks around, optional sign, digits, one optional point. */
function isDecimalAt(codes: Uint16Array, from: number, to: number): boolean {
  while (from < to && codes[from] === 32) from++;
  while (to > from && codes[to - 1] === 32) to--;
  if (from < to) {
    const sign = codes[from]!;
    if (sign === 45 || sign === 43) from++;
  }
  let digits = 0;
  let point = false;
  for (; from < to; from++) {
    const c = codes[from]!;
    if (c >= 48 && c <= 57) digits++;
    else if (c === 46 && !point) point = true;
    else return false;
  }
  return digits > 0;
}

const CODE_30 = 1;
const CODE_98 = 2;
const CODE_1 = 4;
const ANY_CODE = 8;

/** Which of 30, 98 and 1 EB03 lists (between repetition and component separators), and whether it lists any code. */
function serviceCodes(codes: Uint16Array, from: number, to: number, component: number, repetition: number): number {
  let found = 0;
  let start = from;
  for (let i = from; i <= to; i++) {
    if (i < to) {
      const c = codes[i]!;
      if (c !== component && c !== repetition) continue;
    }
    const length = i - start;
    if (length > 0) {
      found |= ANY_CODE;
      const a = codes[start]!;
      if (length === 1) {
        if (a === 49) found |= CODE_1;
      } else if (length === 2) {
        const b = codes[start + 1]!;
        if (a === 51 && b === 48) found |= CODE_30;
        else if (a === 57 && b === 56) found |= CODE_98;
      }
    }
    start = i + 1;
  }
  return found;
}

/** SERVICE_ORDER of §4.3: copay and coinsurance 30, 98, none, 1; deductible and stop-loss 30, none, 1. */
function serviceRank(codes: number, field: number): number {
  const withService98 = field === COPAY || field === COINSURANCE;
  if (codes & CODE_30) return 0;
  if (withService98 && codes & CODE_98) return 1;
  if (!(codes & ANY_CODE)) return withService98 ? 2 : 1;
  if (codes & CODE_1) return withService98 ? 3 : 2;
  return -1;
}

/**
 * Reads EB segments with their document order (each from its own text and delimiters). The code
 * array is made once per input text, not per EB: a loop's EBs all come from one reply.
 */
export function readBenefitRows(benefits: readonly { eb: Segment; order: number }[]): BenefitRow[] {
  const rows: BenefitRow[] = new Array(benefits.length);
  let text: string | undefined;
  let codes: Uint16Array | undefined;
  for (let i = 0; i < benefits.length; i++) {
    const { eb, order } = benefits[i]!;
    if (eb.text !== text || codes === undefined) {
      text = eb.text;
      codes = codesOf(text);
    }
    rows[i] = readBenefitAt(eb.text, codes, eb.offset, eb.stop, eb.delimiters, order);
  }
  return rows;
}

/** Reads the EB at text[start, stop) (start is its id); `codes` holds text's code units (codesOf). */
export function readBenefitAt(text: string, codes: Uint16Array, start: number, stop: number, delimiters: Delimiters, order: number): BenefitRow {
  const separator = delimiters.element.charCodeAt(0);
  // Separators up to EB04's end first; only a figure row needs the walk on to EB13.
  let count = 0;
  let i = start;
  for (; i < stop && count < 5; i++) if (codes[i] === separator) cuts[count++] = i;
  cuts[count] = stop;
  // Element n (1-based) is text[cuts[n-1] + 1, cuts[n]) when n <= count.

  const row: BenefitRow = {
    order,
    status: NO_STATUS,
    medicare: 0,
    field: NO_FIELD,
    service: -1,
    time: EMPTY_TIME,
    total: -1,
    networkIn: -1,
    networkOut: -1,
    individual: -1,
    family: -1,
    value: '',
  };
  if (count < 1) return row;

  // EB01: status and field, both single characters.
  let field = NO_FIELD;
  if (cuts[1]! - cuts[0]! === 2) {
    const eb01 = codes[cuts[0]! + 1]!;
    if (eb01 >= 49 && eb01 <= 53) row.status = ACTIVE;
    else if (eb01 >= 54 && eb01 <= 56) row.status = INACTIVE;
    else field = fieldOf(eb01);
  }
  // EB04: MA / MB.
  if (count >= 4 && cuts[4]! - cuts[3]! === 3 && codes[cuts[3]! + 1] === 77) {
    const part = codes[cuts[3]! + 2]!;
    if (part === 65) row.medicare = PART_A;
    else if (part === 66) row.medicare = PART_B;
  }
  if (field === NO_FIELD) return row;
  for (; i < stop && count < 14; i++) if (codes[i] === separator) cuts[count++] = i;
  cuts[count] = stop;

  // Procedure-specific rows (EB13) say nothing about the plan's figures.
  if (count >= 13 && cuts[13]! - cuts[12]! > 1) return row;
  // The value: EB07 for money, EB08 for coinsurance; a row lacking it (or unreadable) wins nothing.
  const valueAt = field === COINSURANCE ? 8 : 7;
  if (count < valueAt) return row;
  const valueFrom = cuts[valueAt - 1]! + 1;
  const valueTo = cuts[valueAt]!;
  if (!isDecimalAt(codes, valueFrom, valueTo)) return row;
  // EB03: a row whose service codes fit no slot wins nothing.
  const component = delimiters.component.charCodeAt(0);
  const repetition = delimiters.repetition === null ? -1 : delimiters.repetition.charCodeAt(0);
  const listed = count >= 3 ? serviceCodes(codes, cuts[2]! + 1, cuts[3]!, component, repetition) : 0;
  const service = serviceRank(listed, field);
  if (service < 0) return row;

  row.field = field;
  row.service = service;
  row.value = text.slice(valueFrom, valueTo);
  levelRanks(row, codes, count >= 2 ? cuts[1]! + 1 : 0, count >= 2 ? cuts[2]! : 0, field);
  timeRanks(row, codes, count >= 6 ? cuts[5]! + 1 : 0, count >= 6 ? cuts[6]! : 0);
  networkRanks(row, codes, count >= 12 ? cuts[11]! + 1 : 0, count >= 12 ? cuts[12]! : 0);
  return row;
}

/** EB02: IND/EMP/empty for individual; FAM (or empty, for copay and coinsurance) for family. */
function levelRanks(row: BenefitRow, codes: Uint16Array, from: number, to: number, field: number): void {
  const length = to - from;
  if (length === 0) {
    row.individual = 2;
    row.family = field === COPAY || field === COINSURANCE ? 2 : -1;
  } else if (length === 3) {
    const a = codes[from]!;
    const b = codes[from + 1]!;
    const c = codes[from + 2]!;
    if (a === 73 && b === 78 && c === 68) row.individual = 0; // IND
    else if (a === 69 && b === 77 && c === 80) row.individual = 1; // EMP
    else if (a === 70 && b === 65 && c === 77) row.family = 0; // FAM
  }
}

/** EB06 as a two-digit value, and its rank for totals: 23, 22, 21, 25, empty. */
function timeRanks(row: BenefitRow, codes: Uint16Array, from: number, to: number): void {
  const length = to - from;
  if (length === 0) {
    row.time = EMPTY_TIME;
    row.total = 4;
    return;
  }
  row.time = OTHER_TIME;
  if (length !== 2) return;
  const a = codes[from]! - 48;
  const b = codes[from + 1]! - 48;
  if (a < 0 || a > 9 || b < 0 || b > 9) return;
  const time = a * 10 + b;
  row.time = time;
  row.total = time === 23 ? 0 : time === 22 ? 1 : time === 21 ? 2 : time === 25 ? 3 : -1;
}

/** EB12: in ← Y, W, U, empty; out ← N, W, U, empty (Y/N rank before the rest). */
function networkRanks(row: BenefitRow, codes: Uint16Array, from: number, to: number): void {
  const length = to - from;
  if (length === 0) {
    row.networkIn = row.networkOut = 1;
    return;
  }
  if (length !== 1) return;
  const code = codes[from]!;
  if (code === 89) row.networkIn = 0; // Y
  else if (code === 78) row.networkOut = 0; // N
  else if (code === 87 || code === 85) row.networkIn = row.networkOut = 1; // W, U
}
