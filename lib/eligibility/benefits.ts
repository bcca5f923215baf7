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
import { NOT_AVAILABLE, type BenefitBlock, type CodeName, type Limitation, type ProcedureBenefit, type ServiceBenefit, type ServiceStatus } from './types.js';

export const MAX_BENEFITS = 100;
export const MAX_MESSAGES = 10;
export const UNKNOWN_SERVICE_TYPE = 'Unknown service type';

/** EB01 values whose EB03 codes get an entry of their own (figures, limits, not covered). */
const LISTED_INFO: ReadonlySet<string> = new Set(['A', 'B', 'C', 'F', 'G', 'I']);

/**
 * Entry numbers by code, for the call in progress. A service type code is one or two of 0-9/A-Z, so
 * it maps to a small integer (its slot) and a table lookup replaces hashing; the rare other code
 * (a payer's own, or damage) is found in a short list. Both are cleared before the call returns.
 */
const SLOTS = 37 + 36 * 36;
const entryBySlot = new Int16Array(SLOTS);
const serviceTypes: (CodeName | undefined)[] = new Array(SLOTS);
let oddCodes: string[] = [];
let oddEntries: number[] = [];

function alnum(c: number): number {
  return c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 90 ? c - 55 : -1;
}

/** The code's slot, or -1 when it is not one or two of 0-9/A-Z. */
function slotOf(code: string): number {
  const n = code.length;
  if (n === 0 || n > 2) return -1;
  const a = alnum(code.charCodeAt(0));
  if (a < 0) return -1;
  if (n === 1) return a + 1;
  const b = alnum(code.charCodeAt(1));
  return b < 0 ? -1 : 37 + a * 36 + b;
}

/** The entry number of a code in the call in progress, or -1. */
function entryOf(code: string): number {
  const slot = slotOf(code);
  if (slot >= 0) return entryBySlot[slot]! - 1;
  for (let i = 0; i < oddCodes.length; i++) if (oddCodes[i] === code) return oddEntries[i]!;
  return -1;
}

function addEntry(codes: string[], code: string): void {
  if (codes.length >= MAX_BENEFITS || entryOf(code) >= 0) return;
  const slot = slotOf(code);
  if (slot >= 0) entryBySlot[slot] = codes.length + 1;
  else {
    oddCodes.push(code);
    oddEntries.push(codes.length);
  }
  codes.push(code);
}

function clearEntries(codes: readonly string[]): void {
  for (let i = 0; i < codes.length; i++) {
    const slot = slotOf(codes[i]!);
    if (slot >= 0) entryBySlot[slot] = 0;
  }
  if (oddCodes.length > 0) {
    oddCodes = [];
    oddEntries = [];
  }
}

/** `{code, name}` of a service type; the same frozen object for every answer that names a listed code. */
function serviceTypeOf(code: string): CodeName {
  const slot = slotOf(code);
  if (slot < 0) return { code, name: serviceTypeName(code) ?? UNKNOWN_SERVICE_TYPE };
  return (serviceTypes[slot] ??= Object.freeze({ code, name: serviceTypeName(code) ?? UNKNOWN_SERVICE_TYPE }));
}

/** The codes `benefits` has entries for: the requested ones, then the others candidates list, first seen first. */
function entryCodes(requested: readonly string[], candidates: readonly BenefitRow[]): string[] {
  const codes: string[] = [];
  for (let i = 0; i < requested.length; i++) addEntry(codes, requested[i]!);
  for (let i = 0; i < candidates.length && codes.length < MAX_BENEFITS; i++) {
    const row = candidates[i]!;
    if (!LISTED_INFO.has(row.info)) continue;
    const services = row.services;
    for (let j = 0; j < services.length; j++) addEntry(codes, services[j]!);
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
  const candidates = selection.candidates;
  let codes: string[] = [];
  try {
    codes = entryCodes(requested, candidates);
    return entries(rows, candidates, codes, { rankService: false, noFamily: selection.noFamily });
  } finally {
    clearEntries(codes);
  }
}

function entries(rows: readonly BenefitRow[], candidates: readonly BenefitRow[], codes: readonly string[], rules: BlockRules): ServiceBenefit[] {
  // One pass over all rows for the statuses, one over the candidates for each code's rows.
  const flags = new Uint8Array(codes.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const flag = row.status === ACTIVE ? IS_ACTIVE : row.info === 'I' ? IS_NOT_COVERED : row.status === INACTIVE ? IS_INACTIVE : 0;
    if (flag === 0) continue;
    const services = row.services;
    for (let j = 0; j < services.length; j++) {
      const entry = entryOf(services[j]!);
      if (entry >= 0) flags[entry]! |= flag;
    }
  }
  const listings: BenefitRow[][] = new Array(codes.length);
  for (let i = 0; i < codes.length; i++) listings[i] = [];
  for (let i = 0; i < candidates.length; i++) {
    const row = candidates[i]!;
    const services = row.services;
    for (let j = 0; j < services.length; j++) {
      const entry = entryOf(services[j]!);
      if (entry >= 0) listings[entry]!.push(row);
    }
  }
  // Codes listed by exactly the same rows (a row often lists ten codes) get the same figures:
  // they are computed once and the entries share them.
  const computed: { listing: BenefitRow[]; part: ListingPart }[] = [];
  const out: ServiceBenefit[] = new Array(codes.length);
  for (let e = 0; e < codes.length; e++) {
    const code = codes[e]!;
    const listing = listings[e]!;
    let part: ListingPart | undefined;
    for (let i = 0; i < computed.length && part === undefined; i++) if (sameRows(computed[i]!.listing, listing)) part = computed[i]!.part;
    if (part === undefined) {
      part = listingPart(listing, rules);
      computed.push({ listing, part });
    }
    const entry = { serviceType: serviceTypeOf(code), status: statusOf(flags[e]!), inNetwork: part.inNetwork, outNetwork: part.outNetwork } as ServiceBenefit;
    if (part.authorization !== undefined) entry.authorizationRequired = part.authorization;
    entry.limitations = part.limitations;
    entry.messages = part.messages;
    out[e] = entry;
  }
  return out;
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
