/**
 * `limitations` of a `benefits` entry (docs/eligibility.md#limitations): each EB01 F row listing the
 * code, and each HSD (visit, day and quantity limits) of the entry's rows, in document order.
 */
import { quantityQualifierName, timePeriodName } from '../x12/benefit-codes.js';
import type { BenefitRow, Delivery } from './benefit-row.js';
import { isFiller } from './candidates.js';
import { toCents, type LimitationFigures } from './figures.js';

const LIMITATION = 'F';
/** HSD05 29: the quantity is what remains of the limit. */
const REMAINING_PERIOD = '29';
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** A decimal element as a number, when it is one. */
function numberOf(text: string): number | undefined {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) return undefined;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : undefined;
}

/** An EB01 F row; a filler amount (docs/eligibility.md#filler-amounts) is left out, its quantity kept. */
function rowLimitation(row: BenefitRow): LimitationFigures {
  // Keys in the documented order: quantity, unit, amount, period, network, level.
  const out: LimitationFigures = {};
  const quantity = numberOf(row.quantity);
  if (quantity !== undefined) out.quantity = quantity;
  const unit = quantityQualifierName(row.quantityQualifier);
  if (unit) out.unit = unit;
  if (row.exactAmount !== undefined && !isFiller(row.amount)) out.amount = toCents(row.exactAmount);
  const period = timePeriodName(row.timePeriod);
  if (period) out.period = period;
  out.network = row.network === 'Y' ? 'in' : row.network === 'N' ? 'out' : 'any';
  if (row.level === 'IND' || row.level === 'EMP') out.level = 'individual';
  else if (row.level === 'FAM') out.level = 'family';
  return out;
}

/** An HSD: quantity (HSD02), unit (HSD01), period (HSD05), periodCount (HSD06), remaining (HSD05 29). */
function deliveryLimitation(hsd: Delivery): LimitationFigures {
  const out: LimitationFigures = {};
  const quantity = numberOf(hsd.quantity);
  if (quantity !== undefined) out.quantity = quantity;
  const unit = quantityQualifierName(hsd.quantityQualifier);
  if (unit) out.unit = unit;
  const period = timePeriodName(hsd.timePeriod);
  if (period) out.period = period;
  const periodCount = numberOf(hsd.periodCount);
  if (periodCount !== undefined) out.periodCount = periodCount;
  if (hsd.timePeriod === REMAINING_PERIOD) out.remaining = true;
  return out;
}

/** The F rows and the HSDs of the entry's rows, in document order; an HSD said twice is listed once. */
export function limitationsOf(rows: readonly BenefitRow[]): LimitationFigures[] {
  const out: LimitationFigures[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    if (row.info === LIMITATION) out.push(rowLimitation(row));
    for (const hsd of row.deliveries) {
      const limitation = deliveryLimitation(hsd);
      const key = JSON.stringify(limitation);
      if (key === '{}' || seen.has(key)) continue;
      seen.add(key);
      out.push(limitation);
    }
  }
  return out;
}
