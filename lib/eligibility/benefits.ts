/**
 * `benefits` (one entry per service type) and `procedures` (one per requested procedure code):
 * docs/eligibility.md#benefits-per-service-type and #procedures. Each entry's blocks are the
 * plan-wide slot rules over the candidates that list its code, EB03 rank aside.
 */
import { quantityQualifierName, timePeriodName } from '../x12/benefit-codes.js';
import { serviceTypeName } from '../x12/service-type-codes.js';
import { ACTIVE, INACTIVE, type BenefitRow } from './benefit-row.js';
import type { Selection } from './candidates.js';
import { moneyTextOrNA } from './format.js';
import { addRow, blocks, fieldRows, type BlockRules, type FieldRows } from './summary.js';
import { NOT_AVAILABLE, type BenefitBlock, type Limitation, type ProcedureBenefit, type ServiceBenefit, type ServiceStatus } from './types.js';

export const MAX_BENEFITS = 100;
export const MAX_MESSAGES = 10;
export const UNKNOWN_SERVICE_TYPE = 'Unknown service type';

/** EB01 values whose EB03 codes get an entry of their own (figures, limits, not covered). */
const LISTED_INFO: ReadonlySet<string> = new Set(['A', 'B', 'C', 'F', 'G', 'I']);

/** The codes `benefits` has entries for: the requested ones, then the others candidates list, first seen first. */
export function entryCodes(requested: readonly string[], candidates: readonly BenefitRow[]): string[] {
  const codes: string[] = [];
  const seen = new Set<string>();
  const add = (code: string): void => {
    if (codes.length < MAX_BENEFITS && !seen.has(code)) {
      seen.add(code);
      codes.push(code);
    }
  };
  for (const code of requested) add(code);
  for (const row of candidates) {
    if (!LISTED_INFO.has(row.info)) continue;
    for (const code of row.services) add(code);
  }
  return codes;
}

/** Status flags per code, from every patient row listing it (docs/eligibility.md#benefits-per-service-type). */
const IS_ACTIVE = 1;
const IS_NOT_COVERED = 2;
const IS_INACTIVE = 4;

function statusOf(flags: number): ServiceStatus {
  return flags & IS_ACTIVE ? 'Active' : flags & IS_NOT_COVERED ? 'NotCovered' : flags & IS_INACTIVE ? 'Inactive' : 'Unknown';
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
    const amount = moneyTextOrNA(row.amount);
    if (amount !== NOT_AVAILABLE) out.amount = amount;
  }
  const period = timePeriodName(row.timePeriod);
  if (period) out.period = period;
  out.network = row.network === 'Y' ? 'in' : row.network === 'N' ? 'out' : 'any';
  if (row.level === 'IND' || row.level === 'EMP') out.level = 'individual';
  else if (row.level === 'FAM') out.level = 'family';
  return out;
}

export function serviceBenefits(rows: readonly BenefitRow[], selection: Selection, requested: readonly string[]): ServiceBenefit[] {
  const codes = entryCodes(requested, selection.candidates);
  const rules = { rankService: false, noFamily: selection.noFamily };
  // One pass over all rows for the statuses, one over the candidates for each code's rows.
  const flags = new Map<string, number>();
  for (const code of codes) flags.set(code, 0);
  for (const row of rows) {
    const flag = row.status === ACTIVE ? IS_ACTIVE : row.info === 'I' ? IS_NOT_COVERED : row.status === INACTIVE ? IS_INACTIVE : 0;
    if (flag === 0) continue;
    for (const code of row.services) {
      const seen = flags.get(code);
      if (seen !== undefined) flags.set(code, seen | flag);
    }
  }
  const byCode = new Map<string, BenefitRow[]>();
  for (const code of codes) byCode.set(code, []);
  for (const row of selection.candidates) {
    for (const code of row.services) byCode.get(code)?.push(row);
  }
  // Codes listed by exactly the same rows (a row often lists ten codes) get the same figures:
  // they are computed once and the entries share them.
  const computed: { listing: BenefitRow[]; part: ListingPart }[] = [];
  return codes.map((code) => {
    const listing = byCode.get(code)!;
    let part: ListingPart | undefined;
    for (let i = 0; i < computed.length && part === undefined; i++) if (sameRows(computed[i]!.listing, listing)) part = computed[i]!.part;
    if (part === undefined) {
      part = listingPart(listing, rules);
      computed.push({ listing, part });
    }
    const entry = {
      serviceType: { code, name: serviceTypeName(code) ?? UNKNOWN_SERVICE_TYPE },
      status: statusOf(flags.get(code)!),
      inNetwork: part.inNetwork,
      outNetwork: part.outNetwork,
    } as ServiceBenefit;
    if (part.authorization !== undefined) entry.authorizationRequired = part.authorization;
    entry.limitations = part.limitations;
    entry.messages = part.messages;
    return entry;
  });
}

/** What an entry's rows give, independent of its code. */
interface ListingPart {
  inNetwork: BenefitBlock;
  outNetwork: BenefitBlock;
  authorization: boolean | undefined;
  limitations: Limitation[];
  messages: string[];
}

function sameRows(a: readonly BenefitRow[], b: readonly BenefitRow[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function listingPart(listing: readonly BenefitRow[], rules: BlockRules): ListingPart {
  const fields: FieldRows = fieldRows();
  const limitations: Limitation[] = [];
  for (const row of listing) {
    addRow(fields, row);
    if (row.info === 'F') limitations.push(limitationOf(row));
  }
  const { inNetwork, outNetwork } = blocks(fields, rules);
  return { inNetwork, outNetwork, authorization: authorizationOf(listing), limitations, messages: messagesOf(listing) };
}

export function procedureBenefits(selection: Selection, requested: readonly string[]): ProcedureBenefit[] {
  const rules = { rankService: false, noFamily: selection.noFamily };
  return requested.map((code) => {
    const listing = selection.procedureRows.filter((row) => row.procedure === code);
    const fields: FieldRows = fieldRows();
    for (const row of listing) addRow(fields, row);
    const entry: ProcedureBenefit = { code, ...blocks(fields, rules) } as ProcedureBenefit;
    const authorization = authorizationOf(listing);
    if (authorization !== undefined) entry.authorizationRequired = authorization;
    entry.messages = messagesOf(listing);
    return entry;
  });
}
