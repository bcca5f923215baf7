/**
 * The plan and the people of the answer (docs/eligibility.md#plan-and-people), and the plan level that
 * per-service figures fall back to (docs/eligibility.md#per-service-figures-fall-back-to-the-plan).
 * Three sections, in reading order: what a 2100C/2100D loop says about the person, `plan`/`subscriber`/
 * `dependent`, the plan-level fallback.
 */
import { element, insuranceTypeName, type Loop, SEGMENT } from '../x12/index.js';
import { type BenefitRow, HEALTH_PLAN, isActive, isPartB, lists, type Period, periodOf } from './benefit-row.js';
import { d8ToIso, OPEN_END, periodDates } from './dates.js';
import type { CodeName, Dependent, Plan, PlanField, Relationship, Subscriber } from './types.js';
import { PLAN_FIELDS } from '../validation/index.js';
import { type Block, type Blocks, type LevelFigures, type Money, noFigures, NOT_KNOWN } from './figures.js';
import { blocks, type PlanCode, rowsByField } from './summary.js';

/*
 * What a 2100C/2100D (its NM1 and the segments it keeps) says about the person
 * (docs/eligibility.md#plan-and-people): name and member id, birth date, relationship, group and
 * plan numbers, plan dates. The first of each segment counts.
 */

export interface PersonLoop {
  /** NM103, NM104, NM108, NM109. */
  lastName: string;
  firstName: string;
  idQualifier: string;
  id: string;
  /** DMG02 when DMG01 is D8 (the first such DMG). */
  dateOfBirth: string;
  /** INS02 (the first INS with one). */
  relationship: string;
  /** REF*6P REF02 / REF03 and REF*18 REF02 / REF03 (the first of each). */
  groupNumber: string;
  groupName: string;
  planNumber: string;
  planName: string;
  dates: Period[];
}

export function emptyPerson(): PersonLoop {
  return {
    lastName: '',
    firstName: '',
    idQualifier: '',
    id: '',
    dateOfBirth: '',
    relationship: '',
    groupNumber: '',
    groupName: '',
    planNumber: '',
    planName: '',
    dates: [],
  };
}

const REF_GROUP = '6P';
const REF_PLAN = '18';
const D8 = 'D8';

/** One pass over the 2100's segments; the first DMG*D8, INS, REF*6P and REF*18 with a value count. */
export function personOf(loop: Loop): PersonLoop {
  const segments = loop.segments;
  const nm1 = segments[0]!;
  const person: PersonLoop = {
    ...emptyPerson(),
    lastName: element(nm1, 3),
    firstName: element(nm1, 4),
    idQualifier: element(nm1, 8),
    id: element(nm1, 9),
  };
  let groupSeen = false;
  for (let i = 1; i < segments.length; i++) {
    const s = segments[i]!;
    switch (s.id) {
      case SEGMENT.demographics:
        if (person.dateOfBirth === '' && element(s, 1) === D8) person.dateOfBirth = element(s, 2);
        break;
      case SEGMENT.insured:
        if (person.relationship === '') person.relationship = element(s, 2);
        break;
      case SEGMENT.reference: {
        const qualifier = element(s, 1);
        if (qualifier === REF_GROUP && !groupSeen && (element(s, 2) !== '' || element(s, 3) !== '')) {
          groupSeen = true;
          person.groupNumber = element(s, 2);
          person.groupName = element(s, 3);
        } else if (qualifier === REF_PLAN) {
          if (person.planNumber === '') person.planNumber = element(s, 2);
          if (person.planName === '') person.planName = element(s, 3).trim();
        }
        break;
      }
      case SEGMENT.date:
        person.dates.push(periodOf(s));
    }
  }
  return person;
}

/*
 * `plan`, `subscriber` and `dependent` of the answer (docs/eligibility.md#plan-and-people): the
 * plan row's EB04/EB05, the 2100 REF and DTP segments (the patient's 2100 first, then 2100C), and
 * the names, ids and birth dates as the payer wrote them.
 */

const UNKNOWN_INSURANCE_TYPE = 'Unknown insurance type';

export function insuranceType(code: string): CodeName | undefined {
  return code === '' ? undefined : { code, name: insuranceTypeName(code) ?? UNKNOWN_INSURANCE_TYPE };
}

/**
 * The plan row, chosen among the candidates after every drop rule (docs/eligibility.md#plan-and-people),
 * so Part B wins over a dropped Part A: the first EB01 1–5 candidate listing 30, else the first
 * EB01 1–5 candidate; only when no candidate is active, the first EB01 1–5 row of all.
 */
function planRow(candidates: readonly BenefitRow[], rows: readonly BenefitRow[]): BenefitRow | undefined {
  return candidates.find((row) => isActive(row) && lists(row, HEALTH_PLAN)) ?? candidates.find(isActive) ?? rows.find(isActive);
}

const iso = (value: string): string | undefined => {
  const date = d8ToIso(value);
  return date === OPEN_END ? undefined : date;
};

type PlanDates = Pick<Plan, 'planBegin' | 'planEnd' | 'eligibilityBegin' | 'eligibilityEnd'>;

/**
 * Plan dates of one 2100: DTP 346/347 first, else the ends of DTP 291 RD8; DTP 356/357 for
 * eligibility, else DTP 307 (both ends of an RD8; a D8 is the begin).
 */
function planDates(dates: readonly Period[]): PlanDates {
  const out: PlanDates = {};
  const range: PlanDates = {};
  for (const period of dates) {
    const read = periodDates(period);
    if (read === undefined) continue;
    const first = 'single' in read ? read.single : read.begin;
    const last = 'single' in read ? read.single : read.end;
    if (period.qualifier === '346') out.planBegin ??= iso(first);
    else if (period.qualifier === '347') out.planEnd ??= iso(last);
    else if (period.qualifier === '356') out.eligibilityBegin ??= iso(first);
    else if (period.qualifier === '357') out.eligibilityEnd ??= iso(last);
    else if (period.qualifier === '291' && !('single' in read)) {
      range.planBegin ??= iso(read.begin);
      range.planEnd ??= iso(read.end);
    } else if (period.qualifier === '307') {
      range.eligibilityBegin ??= iso(first);
      if (!('single' in read)) range.eligibilityEnd ??= iso(read.end);
    }
  }
  for (const key of ['planBegin', 'planEnd', 'eligibilityBegin', 'eligibilityEnd'] as const)
    if (out[key] === undefined && range[key] !== undefined) out[key] = range[key];
  return out;
}

/** docs/eligibility.md#dental-and-vision-only-plans: a dental- or vision-only plan says so. */
const SCOPES: Readonly<Record<PlanCode, Plan['scope']>> = { '30': undefined, '35': 'dental', AL: 'vision' };

export function planOf(
  candidates: readonly BenefitRow[],
  rows: readonly BenefitRow[],
  sources: readonly (PersonLoop | undefined)[],
  planCode: PlanCode = HEALTH_PLAN,
): Plan {
  const plan: Plan = {};
  const row = planRow(candidates, rows);
  // The plan row's EB05, else the REF*18 plan name of the patient's 2100 (else 2100C).
  const name = row?.planName.trim() || sources.find((person) => person !== undefined && person.planName !== '')?.planName || '';
  if (name !== '') plan.name = name;
  const scope = SCOPES[planCode];
  if (scope !== undefined) plan.scope = scope;
  const type = row ? insuranceType(row.insuranceType) : undefined;
  if (type) plan.insuranceType = type;
  for (const person of sources) {
    if (!person) continue;
    if (plan.groupNumber === undefined && plan.groupName === undefined && (person.groupNumber !== '' || person.groupName !== '')) {
      if (person.groupNumber !== '') plan.groupNumber = person.groupNumber;
      if (person.groupName !== '') plan.groupName = person.groupName;
    }
    if (plan.planNumber === undefined && person.planNumber !== '') plan.planNumber = person.planNumber;
    const dates = planDates(person.dates);
    if (plan.planBegin === undefined && dates.planBegin !== undefined) plan.planBegin = dates.planBegin;
    if (plan.planEnd === undefined && dates.planEnd !== undefined) plan.planEnd = dates.planEnd;
    if (plan.eligibilityBegin === undefined && dates.eligibilityBegin !== undefined) plan.eligibilityBegin = dates.eligibilityBegin;
    if (plan.eligibilityEnd === undefined && dates.eligibilityEnd !== undefined) plan.eligibilityEnd = dates.eligibilityEnd;
  }
  return plan;
}

/** DTP*442: the person's date of death (docs/eligibility.md#date-of-death), ISO, when the payer gives one. */
export function dateOfDeathOf(person: PersonLoop | undefined): string | undefined {
  const period = person?.dates.find((date) => date.qualifier === DATE_OF_DEATH);
  const read = period === undefined ? undefined : periodDates(period);
  return read === undefined ? undefined : iso('single' in read ? read.single : read.begin);
}
const DATE_OF_DEATH = '442';

export function subscriberOf(person: PersonLoop | undefined): Subscriber {
  const out: Subscriber = {};
  if (!person) return out;
  if (person.firstName !== '') out.firstName = person.firstName;
  if (person.lastName !== '') out.lastName = person.lastName;
  if (person.id !== '') out.memberId = person.id;
  const born = d8ToIso(person.dateOfBirth);
  if (born) out.dateOfBirth = born;
  const died = dateOfDeathOf(person);
  if (died) out.dateOfDeath = died;
  return out;
}

const RELATIONSHIPS: Readonly<Record<string, Relationship>> = { '01': 'spouse', '19': 'child', '34': 'other adult' };

export function dependentOf(person: PersonLoop): Dependent {
  const out: Dependent = {};
  if (person.firstName !== '') out.firstName = person.firstName;
  if (person.lastName !== '') out.lastName = person.lastName;
  const born = d8ToIso(person.dateOfBirth);
  if (born) out.dateOfBirth = born;
  const died = dateOfDeathOf(person);
  if (died) out.dateOfDeath = died;
  if (person.relationship !== '') out.relationship = Object.hasOwn(RELATIONSHIPS, person.relationship) ? RELATIONSHIPS[person.relationship]! : 'other';
  return out;
}

/*
 * Per-service figures fall back to the plan (docs/eligibility.md#per-service-figures-fall-back-to-the-plan):
 * a `benefits` slot that no row listing the code fills takes the same slot computed over the
 * plan-level rows only (EB03 30, 96 on a Part B row, or none), and the entry says which fields did.
 * A figure the plan-wide summary took from another service's row (a 98 copay) never spreads this way.
 */

/** CMS reports the Part B deductible under 96 (docs/eligibility.md#filling-a-slot). */
const PART_B_PLAN = '96';

/** A row of the plan level: no EB03, 30 (or a dental or vision plan's 35 / AL), or 96 on a Part B row. */
const isPlanLevel = (row: BenefitRow, planCode: PlanCode): boolean =>
  row.services.length === 0 || lists(row, HEALTH_PLAN) || lists(row, planCode) || (isPartB(row) && lists(row, PART_B_PLAN));

export type PlanLevel = Blocks;

/** The benefit blocks (docs/eligibility.md#filling-a-slot) over the plan-level candidates only. */
export function planLevelBlocks(candidates: readonly BenefitRow[], noFamily: boolean, planCode: PlanCode = HEALTH_PLAN): PlanLevel {
  return blocks(rowsByField(candidates.filter((row) => isPlanLevel(row, planCode))), { rankService: true, noFamily, planCode });
}

/** `fromPlan` lists its fields in the schema's order. */
const FIELD_ORDER: readonly PlanField[] = PLAN_FIELDS;

/** One slot: the service's own figure, else the plan's (noting the field when the plan had one). */
const slot = <T>(own: T, plan: T, field: PlanField, used: Set<PlanField>): T => {
  if (own !== NOT_KNOWN || plan === NOT_KNOWN) return own;
  used.add(field);
  return plan;
};

type Accumulator = { total: Money; remaining: Money };

/**
 * A deductible or stopLoss pair (docs/eligibility.md#totals-and-remainings-are-a-pair): with a total
 * of its own, the entry keeps its own remaining, else takes the remaining of the plan-level slot
 * whose total is the same (this network's, then the other's), else none; without one, each figure
 * falls back on its own.
 */
function pair(own: Accumulator, plan: Accumulator, otherNetwork: Accumulator, field: PlanField, used: Set<PlanField>): Accumulator {
  if (own.total === NOT_KNOWN) return { total: slot(own.total, plan.total, field, used), remaining: slot(own.remaining, plan.remaining, field, used) };
  if (own.remaining !== NOT_KNOWN) return own;
  const same = [plan, otherNetwork].find((level) => level.total === own.total && level.remaining !== NOT_KNOWN);
  return same === undefined ? own : { total: own.total, remaining: slot(own.remaining, same.remaining, field, used) };
}

function level(own: LevelFigures, plan: LevelFigures, otherNetwork: LevelFigures, used: Set<PlanField>): LevelFigures {
  const stopLoss = pair(
    { total: own.stopLoss, remaining: own.stopLossRemaining },
    { total: plan.stopLoss, remaining: plan.stopLossRemaining },
    { total: otherNetwork.stopLoss, remaining: otherNetwork.stopLossRemaining },
    'stopLoss',
    used,
  );
  return {
    copay: slot(own.copay, plan.copay, 'copay', used),
    deductible: pair(own.deductible, plan.deductible, otherNetwork.deductible, 'deductible', used),
    coinsurance: slot(own.coinsurance, plan.coinsurance, 'coinsurance', used),
    stopLoss: stopLoss.total,
    stopLossRemaining: stopLoss.remaining,
    // A per-visit deductible is the service's own; the plan's never spreads (docs/eligibility.md#per-visit-deductibles).
    ...(own.perOccurrenceDeductible === undefined ? {} : { perOccurrenceDeductible: own.perOccurrenceDeductible }),
  };
}

const filled = (own: Block, plan: Block, otherNetwork: Block, used: Set<PlanField>): Block => ({
  individual: level(own.individual, plan.individual, otherNetwork.individual, used),
  family: level(own.family, plan.family, otherNetwork.family, used),
});

/** The entry's blocks with every not-known slot the plan level fills, and `fromPlan` in the documented field order. */
export function withPlanFigures(own: Blocks, plan: PlanLevel, networks: { in: boolean; out: boolean }): Blocks & { fromPlan: PlanField[] } {
  const used = new Set<PlanField>();
  const inNetwork = networks.in ? filled(own.inNetwork, plan.inNetwork, plan.outNetwork, used) : own.inNetwork;
  const outNetwork = networks.out ? filled(own.outNetwork, plan.outNetwork, plan.inNetwork, used) : own.outNetwork;
  return { inNetwork, outNetwork, fromPlan: FIELD_ORDER.filter((field) => used.has(field)) };
}

/** A block with every slot not known (an out-of-network exclusion, docs/eligibility.md#not-covered-means-in-network). */
export const emptyBlock = (): Block => ({ individual: noFigures(), family: noFigures() });
