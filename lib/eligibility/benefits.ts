/**
 * `benefits` (one entry per service type) and `procedures` (one per requested procedure code):
 * docs/eligibility.md#benefits-per-service-type and #procedures. Each entry's blocks are the
 * plan-wide slot rules over the candidates that list its code, EB03 rank aside; a service entry's
 * empty slots then take the plan level's figures (plan.ts).
 */
import { serviceTypeName } from '../x12/service-type-codes.js';
import { answersFor, HEALTH_PLAN, isActive, isInactive, lists, type BenefitRow } from './benefit-row.js';
import type { Selection } from './candidates.js';
import { authorizationPart, type AuthorizationPart } from './authorization.js';
import { limitationsOf } from './limitations.js';
import { emptyBlock, planLevelBlocks, withPlanFigures } from './plan.js';
import { blocks, type PlanCode, rowsByField, type BlockRules } from './summary.js';
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
  authorization: AuthorizationPart;
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
    authorization: authorizationPart(listing),
    limitations: limitationsOf(listing),
    messages: messagesOf(listing),
    excludedOutOfNetwork,
  };
}

const sameRows = (a: readonly BenefitRow[], b: readonly BenefitRow[]): boolean => a.length === b.length && a.every((row, i) => row === b[i]);

/** Active and Unknown entries take the plan level's figures where their own rows give none; NotCovered and Inactive never do. */
const FALLS_BACK: ReadonlySet<ServiceStatus> = new Set(['Active', 'Unknown']);

/** EB01 values that state what the patient pays or may have (docs/eligibility.md#active-from-stated-cost-shares). */
const STATED_INFO: ReadonlySet<string> = new Set(['A', 'B', 'C', 'F', 'G', 'J']);

/**
 * A code's status (docs/eligibility.md#benefits-per-service-type); an Unknown one is Active when 30
 * is Active and a row that states a cost share or limit lists the code in network
 * (docs/eligibility.md#active-from-stated-cost-shares).
 */
function statusOf(code: string, statuses: ReadonlyMap<string, ServiceStatus>, rows: readonly BenefitRow[]): ServiceStatus {
  const status = statuses.get(code);
  if (status !== undefined) return status;
  const stated = (row: BenefitRow) => STATED_INFO.has(row.info) && lists(row, code) && IN_NETWORK_EXCLUSION.has(row.network);
  return statuses.get(HEALTH_PLAN) === 'Active' && rows.some(stated) ? 'Active' : 'Unknown';
}

/** The office visit (98) a payer sends as a sick (BY) or well (BZ) visit (docs/eligibility.md#office-visits-sent-as-by-and-bz). */
const OFFICE_VISIT = '98';
const OFFICE_VISIT_KINDS = ['BY', 'BZ'] as const;

/** The dental and vision service types: on a dental- or vision-only plan, the others do not fall back to it. */
const PLAN_KINDS: Readonly<Record<Exclude<PlanCode, '30'>, ReadonlySet<string>>> = {
  '35': new Set(['23', '24', '25', '26', '27', '28', '35', '36', '37', '38', '39', '40', '41']),
  AL: new Set(['AL', 'AM', 'AN', 'AO']),
};
const ofPlanKind = (code: string, planCode: PlanCode): boolean => planCode === HEALTH_PLAN || PLAN_KINDS[planCode].has(code);

export function serviceBenefits(rows: readonly BenefitRow[], selection: Selection, requested: readonly string[]): ServiceFigures[] {
  const rules: BlockRules = { rankService: false, noFamily: selection.noFamily };
  const plan = planLevelBlocks(selection.candidates, selection.noFamily, selection.planCode);
  const listings = rowsByCode(selection.candidates);
  const statuses = statusByCode(rows);
  // Codes listed by exactly the same rows (a row often lists ten codes) get the same figures: one computation per listing.
  const parts: ListingPart[] = [];
  return entryCodes(requested, selection.candidates).map((code) => {
    let listing = listings.get(code) ?? [];
    let status = statusOf(code, statuses, rows);
    // 98 with no row of its own: the sick visit's rows, else the well visit's, answer for it.
    const fromService = code === OFFICE_VISIT && listing.length === 0 ? OFFICE_VISIT_KINDS.find((kind) => listings.has(kind)) : undefined;
    if (fromService !== undefined) {
      listing = listings.get(fromService)!;
      if (status === 'Unknown') status = statusOf(fromService, statuses, rows);
    }
    let part = parts.find((known) => sameRows(known.listing, listing));
    if (part === undefined) {
      part = listingPart(listing, rules);
      parts.push(part);
    }
    const fallsBack = FALLS_BACK.has(status) && ofPlanKind(code, selection.planCode);
    if (fallsBack) part.withPlan ??= withPlanFigures(part, plan, { in: true, out: !part.excludedOutOfNetwork });
    const figures = fallsBack ? part.withPlan! : { inNetwork: part.inNetwork, outNetwork: part.outNetwork, fromPlan: [] };
    const { inNetwork, outNetwork, fromPlan } = figures;
    const { limitations, messages } = part;
    // Keys in the documented order; fromService, authorizationNotes and authorizationRequired only when they apply.
    return {
      serviceType: serviceTypeOf(code),
      status,
      inNetwork,
      outNetwork,
      fromPlan,
      ...(fromService !== undefined ? { fromService } : {}),
      ...part.authorization,
      limitations,
      messages,
    };
  });
}

export function procedureBenefits(selection: Selection, requested: readonly string[]): ProcedureFigures[] {
  const rules: BlockRules = { rankService: false, noFamily: selection.noFamily };
  return requested.map((code) => {
    const listing = selection.procedureRows.filter((row) => row.procedure === code);
    return { code, ...blocks(rowsByField(listing), rules), ...authorizationPart(listing), messages: messagesOf(listing) };
  });
}
