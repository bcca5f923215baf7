/**
 * `limitations` of a `benefits` entry (docs/eligibility.md#limitations) and the frequency limits not
 * met yet on the date of service (docs/eligibility.md#limitations-need-a-limit): each EB01 F row that
 * states a limit, and each HSD (visit, day and quantity limits) of the entry's rows, in document order.
 */
import type { BenefitRow, Delivery } from './benefit-row.js';
import { isFiller } from './candidates.js';
import { d8ToIso, periodDates } from './dates.js';
import { type LimitationFigures, toCents } from './figures.js';
import { quantityQualifierName, timePeriodName } from '../x12/benefit-codes.js';

const LIMITATION = 'F';
/** HSD05 29: the quantity is what remains of the limit. */
const REMAINING_PERIOD = '29';
/** DTP*304: the latest visit or consultation. */
const LAST_VISIT = '304';
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** A decimal element as a number, when it is one. */
function numberOf(text: string): number | undefined {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) return undefined;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : undefined;
}

/** The row's EB07 as a limit: above 0 and not a filler (docs/eligibility.md#filler-amounts). */
function limitAmount(row: BenefitRow): LimitationFigures['amount'] {
  if (row.exactAmount === undefined || isFiller(row.amount)) return undefined;
  const amount = toCents(row.exactAmount);
  return amount > 0n ? amount : undefined;
}

/** An EB01 F row without an HSD: quantity, unit, amount, period, network, level. */
function rowLimitation(row: BenefitRow, quantity: number | undefined, amount: LimitationFigures['amount']): LimitationFigures {
  const out: LimitationFigures = {};
  if (quantity !== undefined) out.quantity = quantity;
  const unit = quantityQualifierName(row.quantityQualifier);
  if (unit) out.unit = unit;
  if (amount !== undefined) out.amount = amount;
  const period = timePeriodName(row.timePeriod);
  if (period) out.period = period;
  out.network = row.network === 'Y' ? 'in' : row.network === 'N' ? 'out' : 'any';
  if (row.level === 'IND' || row.level === 'EMP') out.level = 'individual';
  else if (row.level === 'FAM') out.level = 'family';
  return out;
}

/** The row's DTP*304 as an ISO date; an open date (9999-…) is none. */
function lastVisitOf(row: BenefitRow): string | undefined {
  for (const period of row.dates) {
    if (period.qualifier !== LAST_VISIT) continue;
    const read = periodDates(period);
    const date = read === undefined ? undefined : d8ToIso('single' in read ? read.single : read.end);
    return date === undefined || date.startsWith('9999') ? undefined : date;
  }
  return undefined;
}

/**
 * An HSD: quantity (HSD02, else the F row's EB10), unit, the F row's amount, period (HSD05),
 * periodCount (HSD06), remaining (HSD05 29), lastVisit (the 2110's DTP*304).
 */
function deliveryLimitation(hsd: Delivery, row: BenefitRow, lastVisit: string | undefined): LimitationFigures {
  const out: LimitationFigures = {};
  const own = numberOf(hsd.quantity);
  const rowQuantity = row.info === LIMITATION && own === undefined ? numberOf(row.quantity) : undefined;
  const quantity = own ?? rowQuantity;
  if (quantity !== undefined) out.quantity = quantity;
  const unit = quantityQualifierName(rowQuantity === undefined ? hsd.quantityQualifier : row.quantityQualifier);
  if (unit) out.unit = unit;
  const amount = row.info === LIMITATION ? limitAmount(row) : undefined;
  if (amount !== undefined) out.amount = amount;
  const period = timePeriodName(hsd.timePeriod);
  if (period) out.period = period;
  const periodCount = numberOf(hsd.periodCount);
  if (periodCount !== undefined) out.periodCount = periodCount;
  if (hsd.timePeriod === REMAINING_PERIOD) out.remaining = true;
  if (lastVisit !== undefined) out.lastVisit = lastVisit;
  return out;
}

/**
 * The limits of the entry's rows, in document order: one per HSD (an F row's amount or quantity
 * joins each), else one for an F row that states a quantity or an amount above 0; an F row with
 * neither adds nothing. A limit said twice is listed once.
 */
export function limitationsOf(rows: readonly BenefitRow[]): LimitationFigures[] {
  const out: LimitationFigures[] = [];
  const seen = new Set<string>();
  const add = (limitation: LimitationFigures): void => {
    const key = JSON.stringify(limitation, (_, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
    if (key === '{}' || seen.has(key)) return;
    seen.add(key);
    out.push(limitation);
  };
  for (const row of rows) {
    if (row.deliveries.length > 0) {
      const lastVisit = lastVisitOf(row);
      for (const hsd of row.deliveries) add(deliveryLimitation(hsd, row, lastVisit));
    } else if (row.info === LIMITATION) {
      const quantity = numberOf(row.quantity);
      const amount = limitAmount(row);
      if (quantity !== undefined || amount !== undefined || row.quantityQualifier !== '') out.push(rowLimitation(row, quantity, amount));
    }
  }
  return out;
}

/** HSD05 periods a frequency can be counted in: the unit added per HSD06, and its words. */
const FREQUENCY_PERIODS: Readonly<Record<string, { unit: 'day' | 'month' | 'calendarYear'; per: number; one: string; many: string }>> = {
  '7': { unit: 'day', per: 1, one: 'day', many: 'days' },
  '35': { unit: 'day', per: 7, one: 'week', many: 'weeks' },
  '34': { unit: 'month', per: 1, one: 'month', many: 'months' },
  '21': { unit: 'month', per: 12, one: 'year', many: 'years' },
  '22': { unit: 'month', per: 12, one: 'service year', many: 'service years' },
  '23': { unit: 'calendarYear', per: 1, one: 'calendar year', many: 'calendar years' },
};

/** CCYYMMDD of an ISO date plus `count` days, months or calendar years (the first day of the year it allows). */
function nextAllowed(iso: string, unit: 'day' | 'month' | 'calendarYear', count: number): string {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  let date: Date;
  if (unit === 'calendarYear') date = new Date(Date.UTC(year + count, 0, 1));
  else if (unit === 'day') date = new Date(Date.UTC(year, month - 1, day + count));
  else {
    // The same day of the month, or its last day when the month is shorter.
    const lastDay = new Date(Date.UTC(year, month - 1 + count + 1, 0)).getUTCDate();
    date = new Date(Date.UTC(year, month - 1 + count, Math.min(day, lastDay)));
  }
  return date.toISOString().slice(0, 10).replaceAll('-', '');
}

/** A frequency limit not met on the date of service: the row's services, the last visit and the period in words. */
export interface FrequencyNotMet {
  services: readonly string[];
  lastVisit: string;
  period: string;
}

/**
 * The HSD limits whose last visit (DTP*304) plus HSD06 periods of HSD05 falls after the date of
 * service (CCYYMMDD): the patient cannot have the service again yet. One per row, in document order.
 */
export function frequenciesNotMet(rows: readonly BenefitRow[], date: string | undefined): FrequencyNotMet[] {
  if (date === undefined) return [];
  const out: FrequencyNotMet[] = [];
  for (const row of rows) {
    if (row.deliveries.length === 0) continue;
    const lastVisit = lastVisitOf(row);
    if (lastVisit === undefined) continue;
    for (const hsd of row.deliveries) {
      const rule = Object.hasOwn(FREQUENCY_PERIODS, hsd.timePeriod) ? FREQUENCY_PERIODS[hsd.timePeriod]! : undefined;
      if (rule === undefined) continue;
      const count = numberOf(hsd.periodCount) ?? 1;
      if (!Number.isInteger(count) || count < 1 || count > 100) continue;
      if (nextAllowed(lastVisit, rule.unit, count * rule.per) <= date) continue;
      out.push({ services: row.services, lastVisit, period: count === 1 ? rule.one : `${count} ${rule.many}` });
      break;
    }
  }
  return out;
}
