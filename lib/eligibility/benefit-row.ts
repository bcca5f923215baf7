/**
 * One EB of the patient's loop, read once: its elements as text (empty elements cost no string)
 * and the ranks the slot rules compare (docs/eligibility.md#filling-a-slot). The 2110 segments that
 * follow the EB (DTP, MSG, REF, the 2120 NM1) are added by the reader as it meets them.
 */
import type { Delimiters } from '../x12/scan.js';

/** The four figures; the index into a summary's candidate lists. */
export const COPAY = 0;
export const COINSURANCE = 1;
export const DEDUCTIBLE = 2;
export const STOP_LOSS = 3;
/** The row feeds no figure (other EB01, or its value is missing or not a number). */
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

/** A DTP: qualifier (DTP01), format (D8 / RD8) and value, as written. */
export interface Period {
  qualifier: string;
  format: string;
  value: string;
}

/** The 2120 NM1 of a row (the first whose NM101 names a payer: PR, PRP, SEP, TTP). */
export interface RelatedEntity {
  name: string;
  idQualifier: string;
  id: string;
}

export interface BenefitRow {
  /** Document order among the transaction's EBs. */
  order: number;
  status: number;
  medicare: number;
  /** COPAY … STOP_LOSS when EB01 is B/A/C/G and the value it needs (EB07/EB08) is a number. */
  field: number;
  /** Rank of EB03 for the plan-wide slots (30, 98 for copay/coinsurance, none, 1); -1 when unfit. */
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
  /** EB07 (money) or EB08 (coinsurance) text of a figure row; '' otherwise. */
  value: string;
  /** `value` as the answer shows it, once a slot has formatted it. */
  shown: string | undefined;

  /** The elements, as written ('' when absent; EB05 only on 1–5 rows, EB09/EB10 only on F rows, the only rows that use them). */
  info: string;
  level: string;
  /** EB03's codes (repetitions), in order. */
  services: string[];
  insuranceType: string;
  planName: string;
  timePeriod: string;
  amount: string;
  percent: string;
  quantityQualifier: string;
  quantity: string;
  authorization: string;
  network: string;
  /** Whether EB13 (a procedure) is present, and its code (component 2). */
  hasProcedure: boolean;
  procedure: string;

  /** The row's own 2110 DTPs, MSG texts, REF*IG and 2120 payer entity. */
  dates: Period[];
  messages: string[];
  memberRef: string;
  entityMemberRef: string;
  entity: RelatedEntity | undefined;
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

/** Offsets of the first 14 element separators of the row being read, then the end (EB13 ends at index 13). */
const cuts = new Int32Array(15);
const starts = new Int32Array(15);

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

const NO_CODES: string[] = [];
/** Most rows carry no DTP or MSG: they share these empty lists until addDate/addMessage gives them their own. */
const NO_DATES = Object.freeze([]) as unknown as Period[];
const NO_MESSAGES = Object.freeze([]) as unknown as string[];

/** Adds a 2110 DTP to the row. */
export function addDate(row: BenefitRow, period: Period): void {
  if (row.dates === NO_DATES) row.dates = [period];
  else row.dates.push(period);
}

/** Adds a 2110 MSG text to the row. */
export function addMessage(row: BenefitRow, text: string): void {
  if (row.messages === NO_MESSAGES) row.messages = [text];
  else row.messages.push(text);
}

function alnum(c: number): number {
  return c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 90 ? c - 55 : -1;
}

/** Every one- and two-character code of 0-9/A-Z, made once: EB03 codes are taken from here instead of cut. */
const CODE_TEXT: string[] = (() => {
  const chars = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const out: string[] = new Array(37 + 36 * 36);
  for (let a = 0; a < 36; a++) {
    out[a + 1] = chars[a]!;
    for (let b = 0; b < 36; b++) out[37 + a * 36 + b] = chars[a]! + chars[b]!;
  }
  return out;
})();

/** text[from, to) as a code: the shared string for 1–2 characters of 0-9/A-Z, else a cut. */
function codeAt(text: string, codes: Uint16Array, from: number, to: number): string {
  const length = to - from;
  if (length === 1) {
    const a = alnum(codes[from]!);
    if (a >= 0) return CODE_TEXT[a + 1]!;
  } else if (length === 2) {
    const a = alnum(codes[from]!);
    const b = alnum(codes[from + 1]!);
    if (a >= 0 && b >= 0) return CODE_TEXT[37 + a * 36 + b]!;
  }
  return text.slice(from, to);
}

/** EB03's codes, cut between repetition (and component) separators. */
function serviceList(text: string, codes: Uint16Array, from: number, to: number, component: number, repetition: number): string[] {
  if (to <= from) return NO_CODES;
  let single = true;
  for (let i = from; i < to; i++) {
    const c = codes[i]!;
    if (c === component || c === repetition) {
      single = false;
      break;
    }
  }
  if (single) return [codeAt(text, codes, from, to)];
  const out: string[] = [];
  let start = from;
  for (let i = from; i <= to; i++) {
    if (i < to) {
      const c = codes[i]!;
      if (c !== component && c !== repetition) continue;
    }
    if (i > start) out.push(codeAt(text, codes, start, i));
    start = i + 1;
  }
  return out;
}

/**
 * Rank of EB03 for the plan-wide slots: copay and coinsurance 30, 98, none, 1; deductible and
 * stop-loss 30, none, 1. On a Part B row 96 ranks as 30 (docs/eligibility.md#filling-a-slot).
 */
function serviceRank(services: readonly string[], field: number, partB: boolean): number {
  const with98 = field === COPAY || field === COINSURANCE;
  if (services.length === 0) return with98 ? 2 : 1;
  let best = -1;
  for (let i = 0; i < services.length; i++) {
    const code = services[i]!;
    let rank = -1;
    if (code === '30' || (partB && code === '96')) rank = 0;
    else if (with98 && code === '98') rank = 1;
    else if (code === '1') rank = with98 ? 3 : 2;
    if (rank >= 0 && (best < 0 || rank < best)) best = rank;
  }
  return best;
}

/** text[from, to), or '' without cutting a string when the element is empty or absent. */
function cut(text: string, from: number, to: number): string {
  return to > from ? text.slice(from, to) : '';
}

/** Reads the EB at text[start, stop) (start is its id); `codes` holds text's code units (codesOf). */
export function readBenefitAt(text: string, codes: Uint16Array, start: number, stop: number, delimiters: Delimiters, order: number): BenefitRow {
  const separator = delimiters.element.charCodeAt(0);
  let count = 0;
  for (let i = start; i < stop && count < 14; i++) if (codes[i] === separator) cuts[count++] = i;
  for (let n = count; n < 15; n++) cuts[n] = stop;
  // Element n (1-based) is text[starts[n], cuts[n]); absent elements are empty spans at the end.
  starts[1] = cuts[0]! + 1;
  for (let n = 2; n < 15; n++) starts[n] = n <= count ? cuts[n - 1]! + 1 : stop;
  if (count === 0) starts[1] = stop;

  const component = delimiters.component.charCodeAt(0);
  const repetition = delimiters.repetition === null ? -1 : delimiters.repetition.charCodeAt(0);
  const info = cut(text, starts[1]!, cuts[1]!);
  const level = cut(text, starts[2]!, cuts[2]!);
  const services = serviceList(text, codes, starts[3]!, cuts[3]!, component, repetition);
  const insuranceType = cut(text, starts[4]!, cuts[4]!);
  const timePeriod = cut(text, starts[6]!, cuts[6]!);
  const amount = cut(text, starts[7]!, cuts[7]!);
  const percent = cut(text, starts[8]!, cuts[8]!);
  const network = cut(text, starts[12]!, cuts[12]!);
  const eb13From = starts[13]!;
  const eb13To = cuts[13]!;
  let procedure = '';
  if (eb13To > eb13From) {
    // EB13-2 is the code: after the first component separator, up to the next separator.
    let c1 = eb13From;
    while (c1 < eb13To && codes[c1] !== component) c1++;
    let c2 = c1 + 1;
    while (c2 < eb13To && codes[c2] !== component && codes[c2] !== repetition) c2++;
    if (c1 < eb13To) procedure = cut(text, c1 + 1, c2);
  }

  const row: BenefitRow = {
    order,
    status: NO_STATUS,
    medicare: insuranceType === 'MA' ? PART_A : insuranceType === 'MB' ? PART_B : 0,
    field: NO_FIELD,
    service: -1,
    time: EMPTY_TIME,
    total: -1,
    networkIn: -1,
    networkOut: -1,
    individual: -1,
    family: -1,
    value: '',
    shown: undefined,
    info,
    level,
    services,
    insuranceType,
    // EB05 names a plan on an active-coverage row (1–5); EB09/EB10 count something on a limitation (F).
    planName: info.length === 1 && info >= '1' && info <= '5' ? cut(text, starts[5]!, cuts[5]!) : '',
    timePeriod,
    amount,
    percent,
    quantityQualifier: info === 'F' ? cut(text, starts[9]!, cuts[9]!) : '',
    quantity: info === 'F' ? cut(text, starts[10]!, cuts[10]!) : '',
    authorization: cut(text, starts[11]!, cuts[11]!),
    network,
    hasProcedure: eb13To > eb13From,
    procedure,
    dates: NO_DATES,
    messages: NO_MESSAGES,
    memberRef: '',
    entityMemberRef: '',
    entity: undefined,
  };
  if (info.length !== 1) return row;
  const eb01 = info.charCodeAt(0);
  if (eb01 >= 49 && eb01 <= 53) row.status = ACTIVE;
  else if (eb01 >= 54 && eb01 <= 56) row.status = INACTIVE;
  const field = fieldOf(eb01);
  if (field === NO_FIELD) return row;

  // The value: EB07 for money, EB08 for coinsurance; a row lacking it (or unreadable) feeds nothing.
  const valueAt = field === COINSURANCE ? 8 : 7;
  if (!isDecimalAt(codes, starts[valueAt]!, cuts[valueAt]!)) return row;
  row.field = field;
  row.value = field === COINSURANCE ? percent : amount;
  row.service = serviceRank(services, field, row.medicare === PART_B);
  levelRanks(row, level, field);
  timeRanks(row, timePeriod);
  networkRanks(row, network);
  return row;
}

/** EB02: IND/EMP/empty for individual; FAM (or empty, for copay and coinsurance) for family. */
function levelRanks(row: BenefitRow, level: string, field: number): void {
  if (level === '') {
    row.individual = 2;
    row.family = field === COPAY || field === COINSURANCE ? 2 : -1;
  } else if (level === 'IND') row.individual = 0;
  else if (level === 'EMP') row.individual = 1;
  else if (level === 'FAM') row.family = 0;
}

/** EB06 as a two-digit value, and its rank for totals: 23, 22, 21, 25, empty. */
function timeRanks(row: BenefitRow, period: string): void {
  if (period === '') {
    row.time = EMPTY_TIME;
    row.total = 4;
    return;
  }
  row.time = OTHER_TIME;
  if (period.length !== 2) return;
  const a = period.charCodeAt(0) - 48;
  const b = period.charCodeAt(1) - 48;
  if (a < 0 || a > 9 || b < 0 || b > 9) return;
  const time = a * 10 + b;
  row.time = time;
  row.total = time === 23 ? 0 : time === 22 ? 1 : time === 21 ? 2 : time === 25 ? 3 : -1;
}

/** EB12: in ← Y, W, U, empty; out ← N, W, U, empty (Y/N rank before the rest). */
function networkRanks(row: BenefitRow, network: string): void {
  if (network === '') row.networkIn = row.networkOut = 1;
  else if (network === 'Y') row.networkIn = 0;
  else if (network === 'N') row.networkOut = 0;
  else if (network === 'W' || network === 'U') row.networkIn = row.networkOut = 1;
}
