/**
 * `benefits` (one entry per service type) and `procedures` (one per requested procedure code):
 * docs/eligibility.md#benefits-per-service-type and #procedures. Each entry's blocks are the
 * plan-wide slot rules over the candidates that list its code, EB03 rank aside; a service entry's
 * empty slots then take the plan level's figures (plan.ts).
 */
import { serviceTypeName } from '../x12/service-type-codes.js';
import { answersFor, HEALTH_PLAN, isActive, isInactive, type BenefitRow } from './benefit-row.js';
import type { Selection } from './candidates.js';
import { limitationsOf } from './summary.js';
import { emptyBlock, planLevelBlocks, withPlanFigures } from './plan.js';
import { blocks, rowsByField, type BlockRules } from './summary.js';
import type { Block, LimitationFigures, ProcedureFigures, ServiceFigures } from './figures.js';
import type { CodeName, ServiceStatus } from './types.js';

const MAX_BENEFITS = 100;
const MAX_MESSAGES = 10;
const UNKNOWN_SERVICE_TYPE = 'Unknown service type';

/** EB01 values whose EB03 codes get an entry of their own (figures, limits, not covered). */
const LISTED_INFO: ReadonlySet<string> = new Set(['A', 'B', 'C', 'F', 'G', 'I']);

const serviceTypeOf = (code: string): CodeName => ({ code, name: serviceTypeName(code) ?? UNKNOWN_SERVICE_TYPE });

/** The codes `benefits` has entries for: the requested ones, then the others candidates list, first seen first. */
function entryCodes(requested: readonly string[], candidates: readonly BenefitRow[]): string[] {
  const codes = new Set(requested);
  for (const row of candidates) if (LISTED_INFO.has(row.info)) for (const code of row.services) codes.add(code);
  return [...codes].slice(0, MAX_BENEFITS);
}

/** A plan-level row (EB01 1–8, no EB03) answers for 30 (docs/eligibility.md#plan-level-rows). */
const PLAN_CODES: readonly string[] = [HEALTH_PLAN];

/** The candidates listing each code, in document order, in one pass over them. */
function rowsByCode(rows: readonly BenefitRow[]): Map<string, BenefitRow[]> {
  const out = new Map<string, BenefitRow[]>();
  for (const row of rows) {
    for (const code of row.services) {
      const listing = out.get(code);
      if (listing === undefined) out.set(code, [row]);
      else if (listing[listing.length - 1] !== row) listing.push(row);
    }
  }
  return out;
}

/** EB01 I: not covered. EB12 of an exclusion that reaches in network (docs/eligibility.md#not-covered-means-in-network). */
const NOT_COVERED = 'I';
const IN_NETWORK_EXCLUSION: ReadonlySet<string> = new Set(['Y', 'W', 'U', '']);
const OUT_OF_NETWORK = 'N';

const isExclusion = (row: BenefitRow): boolean => row.info === NOT_COVERED && IN_NETWORK_EXCLUSION.has(row.network);
const isOutOfNetworkExclusion = (row: BenefitRow): boolean => row.info === NOT_COVERED && row.network === OUT_OF_NETWORK;

/** What one row says of the codes it answers for; the first of STATUS_ORDER any row says wins. */
function rowStatus(row: BenefitRow): ServiceStatus | undefined {
  if (isActive(row)) return 'Active';
  if (isExclusion(row)) return 'NotCovered';
  return isInactive(row) ? 'Inactive' : undefined;
}
const STATUS_ORDER: readonly ServiceStatus[] = ['Active', 'NotCovered', 'Inactive', 'Unknown'];

/**
 * Each code's status from every patient row that answers for it, in one pass
 * (docs/eligibility.md#benefits-per-service-type; an EB01 1–8 row with no EB03 answers for 30):
 * Active, else NotCovered (an in-network exclusion), else Inactive; a code missing is Unknown.
 */
function statusByCode(rows: readonly BenefitRow[]): Map<string, ServiceStatus> {
  const out = new Map<string, ServiceStatus>();
  for (const row of rows) {
    const status = rowStatus(row);
    if (status === undefined) continue;
    const codes = row.services.length === 0 && answersFor(row, HEALTH_PLAN) ? PLAN_CODES : row.services;
    for (const code of codes) {
      const known = out.get(code);
      if (known === undefined || STATUS_ORDER.indexOf(status) < STATUS_ORDER.indexOf(known)) out.set(code, status);
    }
  }
  return out;
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

/** What an entry gets from the candidate rows listing its code, whatever the code. */
interface ListingPart {
  listing: readonly BenefitRow[];
  inNetwork: Block;
  outNetwork: Block;
  authorization: boolean | undefined;
  limitations: LimitationFigures[];
  messages: string[];
  /** An out-of-network exclusion lists the code: the out-of-network blocks stay N/A. */
  excludedOutOfNetwork: boolean;
  /** The blocks with the plan level's figures, once an entry that falls back has asked for them. */
  withPlan?: ReturnType<typeof withPlanFigures>;
}

function listingPart(listing: readonly BenefitRow[], rules: BlockRules): ListingPart {
  const excludedOutOfNetwork = listing.some(isOutOfNetworkExclusion);
  const own = blocks(rowsByField(listing), rules);
  return {
    listing,
    inNetwork: own.inNetwork,
    outNetwork: excludedOutOfNetwork ? emptyBlock() : own.outNetwork,
    authorization: authorizationOf(listing),
    limitations: limitationsOf(listing),
    messages: messagesOf(listing),
    excludedOutOfNetwork,
  };
}

const sameRows = (a: readonly BenefitRow[], b: readonly BenefitRow[]): boolean => a.length === b.length && a.every((row, i) => row === b[i]);

/** Active and Unknown entries take the plan level's figures where their own rows give none; NotCovered and Inactive never do. */
const FALLS_BACK: ReadonlySet<ServiceStatus> = new Set(['Active', 'Unknown']);

export function serviceBenefits(rows: readonly BenefitRow[], selection: Selection, requested: readonly string[]): ServiceFigures[] {
  const rules: BlockRules = { rankService: false, noFamily: selection.noFamily };
  const plan = planLevelBlocks(selection.candidates, selection.noFamily);
  const listings = rowsByCode(selection.candidates);
  const statuses = statusByCode(rows);
  // Codes listed by exactly the same rows (a row often lists ten codes) get the same figures: one computation per listing.
  const parts: ListingPart[] = [];
  return entryCodes(requested, selection.candidates).map((code) => {
    const listing = listings.get(code) ?? [];
    let part = parts.find((known) => sameRows(known.listing, listing));
    if (part === undefined) {
      part = listingPart(listing, rules);
      parts.push(part);
    }
    const status = statuses.get(code) ?? 'Unknown';
    const fallsBack = FALLS_BACK.has(status);
    if (fallsBack) part.withPlan ??= withPlanFigures(part, plan, { in: true, out: !part.excludedOutOfNetwork });
    const figures = fallsBack ? part.withPlan! : { inNetwork: part.inNetwork, outNetwork: part.outNetwork, fromPlan: [] };
    const { inNetwork, outNetwork, fromPlan } = figures;
    const { authorization, limitations, messages } = part;
    const serviceType = serviceTypeOf(code);
    // Keys in the documented order; authorizationRequired only when the payer says.
    return authorization === undefined
      ? { serviceType, status, inNetwork, outNetwork, fromPlan, limitations, messages }
      : { serviceType, status, inNetwork, outNetwork, fromPlan, authorizationRequired: authorization, limitations, messages };
  });
}

export function procedureBenefits(selection: Selection, requested: readonly string[]): ProcedureFigures[] {
  const rules: BlockRules = { rankService: false, noFamily: selection.noFamily };
  return requested.map((code) => {
    const listing = selection.procedureRows.filter((row) => row.procedure === code);
    const authorization = authorizationOf(listing);
    return {
      code,
      ...blocks(rowsByField(listing), rules),
      ...(authorization === undefined ? {} : { authorizationRequired: authorization }),
      messages: messagesOf(listing),
    };
  });
}
