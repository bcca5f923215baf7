/**
 * `benefits` (one entry per service type) and `procedures` (one per requested procedure code):
 * docs/eligibility.md#benefits-per-service-type and #procedures. Each entry's blocks are the
 * plan-wide slot rules over the candidates that list its code, EB03 rank aside.
 */
import { quantityQualifierName, timePeriodName } from '../x12/benefit-codes.js';
import { serviceTypeName } from '../x12/service-type-codes.js';
import { isActive, isInactive, lists, type BenefitRow } from './benefit-row.js';
import type { Selection } from './candidates.js';
import { moneyText } from './format.js';
import { blocks, rowsByField, type BlockRules } from './summary.js';
import { NOT_AVAILABLE, type BenefitBlock, type CodeName, type Limitation, type ProcedureBenefit, type ServiceBenefit, type ServiceStatus } from './types.js';

export const MAX_BENEFITS = 100;
export const MAX_MESSAGES = 10;
export const UNKNOWN_SERVICE_TYPE = 'Unknown service type';

/** EB01 values whose EB03 codes get an entry of their own (figures, limits, not covered). */
const LISTED_INFO: ReadonlySet<string> = new Set(['A', 'B', 'C', 'F', 'G', 'I']);

const serviceTypeOf = (code: string): CodeName => ({ code, name: serviceTypeName(code) ?? UNKNOWN_SERVICE_TYPE });

/** The codes `benefits` has entries for: the requested ones, then the others candidates list, first seen first. */
function entryCodes(requested: readonly string[], candidates: readonly BenefitRow[]): string[] {
  const listed = candidates.filter((row) => LISTED_INFO.has(row.info)).flatMap((row) => row.services);
  return [...new Set([...requested, ...listed])].slice(0, MAX_BENEFITS);
}

/** A code's status from every patient row listing it (docs/eligibility.md#benefits-per-service-type). */
function statusOf(rows: readonly BenefitRow[], code: string): ServiceStatus {
  const listing = rows.filter((row) => lists(row, code));
  if (listing.some(isActive)) return 'Active';
  if (listing.some((row) => row.info === 'I')) return 'NotCovered';
  return listing.some(isInactive) ? 'Inactive' : 'Unknown';
}

/** EB11 Y on any row → true; else N on any → false; else undefined. */
function authorizationOf(rows: readonly BenefitRow[]): boolean | undefined {
  let answer: boolean | undefined;
  for (const row of rows) {
    if (row.authorization === 'Y') return true;
    if (row.authorization === 'N') answer = false;
  }
  return answer;
}

/** MSG01 texts of the rows' 2110 loops, trimmed, without repeats, at most MAX_MESSAGES. */
function messagesOf(rows: readonly BenefitRow[]): string[] {
  const out: string[] = [];
  for (const row of rows) {
    for (const message of row.messages) {
      const text = message.trim();
      if (text !== '' && !out.includes(text)) {
        out.push(text);
        if (out.length === MAX_MESSAGES) return out;
      }
    }
  }
  return out;
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** An EB01 F row as a limitation (docs/eligibility.md#limitations). */
function limitationOf(row: BenefitRow): Limitation {
  // Keys in the documented order: quantity, unit, amount, period, network, level.
  const out = {} as Limitation;
  const quantity = row.quantity.trim();
  if (DECIMAL.test(quantity)) {
    const number = Number(quantity);
    if (Number.isFinite(number)) out.quantity = number;
  }
  const unit = quantityQualifierName(row.quantityQualifier);
  if (unit) out.unit = unit;
  if (row.amount !== '') {
    const amount = moneyText(row.amount);
    if (amount !== NOT_AVAILABLE) out.amount = amount;
  }
  const period = timePeriodName(row.timePeriod);
  if (period) out.period = period;
  out.network = row.network === 'Y' ? 'in' : row.network === 'N' ? 'out' : 'any';
  if (row.level === 'IND' || row.level === 'EMP') out.level = 'individual';
  else if (row.level === 'FAM') out.level = 'family';
  return out;
}

/** What an entry gets from the candidate rows listing its code, whatever the code. */
interface ListingPart {
  inNetwork: BenefitBlock;
  outNetwork: BenefitBlock;
  authorization: boolean | undefined;
  limitations: Limitation[];
  messages: string[];
}

function listingPart(listing: readonly BenefitRow[], rules: BlockRules): ListingPart {
  return {
    ...blocks(rowsByField(listing), rules),
    authorization: authorizationOf(listing),
    limitations: listing.filter((row) => row.info === 'F').map(limitationOf),
    messages: messagesOf(listing),
  };
}

export function serviceBenefits(rows: readonly BenefitRow[], selection: Selection, requested: readonly string[]): ServiceBenefit[] {
  const rules: BlockRules = { rankService: false, noFamily: selection.noFamily };
  // Codes listed by exactly the same rows (a row often lists ten codes) get the same figures: one computation per listing.
  const parts = new Map<string, ListingPart>();
  return entryCodes(requested, selection.candidates).map((code) => {
    const listing = selection.candidates.filter((row) => lists(row, code));
    const key = listing.map((row) => row.order).join(',');
    const part = parts.get(key) ?? listingPart(listing, rules);
    parts.set(key, part);
    const entry = { serviceType: serviceTypeOf(code), status: statusOf(rows, code), inNetwork: part.inNetwork, outNetwork: part.outNetwork } as ServiceBenefit;
    if (part.authorization !== undefined) entry.authorizationRequired = part.authorization;
    entry.limitations = part.limitations;
    entry.messages = part.messages;
    return entry;
  });
}

export function procedureBenefits(selection: Selection, requested: readonly string[]): ProcedureBenefit[] {
  const rules: BlockRules = { rankService: false, noFamily: selection.noFamily };
  return requested.map((code) => {
    const listing = selection.procedureRows.filter((row) => row.procedure === code);
    const entry: ProcedureBenefit = { code, ...blocks(rowsByField(listing), rules) } as ProcedureBenefit;
    const authorization = authorizationOf(listing);
    if (authorization !== undefined) entry.authorizationRequired = authorization;
    entry.messages = messagesOf(listing);
    return entry;
  });
}
