/**
 * `plan`, `subscriber` and `dependent` of the answer (docs/eligibility.md#plan-and-people): the
 * plan row's EB04/EB05, the 2100 REF and DTP segments (the patient's 2100 first, then 2100C), and
 * the names, ids and birth dates as the payer wrote them.
 */
import { insuranceTypeName } from '../x12/benefit-codes.js';
import { HEALTH_PLAN, isActive, lists, type BenefitRow, type Period } from './benefit-row.js';
import { d8ToIso, OPEN_END, periodDates } from './dates.js';
import type { PersonLoop } from './person.js';
import type { CodeName, Dependent, Plan, Relationship, Subscriber } from './types.js';

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

/** Plan dates of one 2100: DTP 346/347 first, else the ends of DTP 291 RD8; DTP 356 for eligibility. */
function planDates(dates: readonly Period[]): { planBegin?: string; planEnd?: string; eligibilityBegin?: string } {
  const out: { planBegin?: string; planEnd?: string; eligibilityBegin?: string } = {};
  let rangeBegin: string | undefined;
  let rangeEnd: string | undefined;
  for (const period of dates) {
    const read = periodDates(period);
    if (read === undefined) continue;
    const first = 'single' in read ? read.single : read.begin;
    const last = 'single' in read ? read.single : read.end;
    if (period.qualifier === '346') out.planBegin ??= iso(first);
    else if (period.qualifier === '347') out.planEnd ??= iso(last);
    else if (period.qualifier === '356') out.eligibilityBegin ??= iso(first);
    else if (period.qualifier === '291' && !('single' in read)) {
      rangeBegin ??= iso(read.begin);
      rangeEnd ??= iso(read.end);
    }
  }
  if (out.planBegin === undefined && rangeBegin !== undefined) out.planBegin = rangeBegin;
  if (out.planEnd === undefined && rangeEnd !== undefined) out.planEnd = rangeEnd;
  return out;
}

export function planOf(candidates: readonly BenefitRow[], rows: readonly BenefitRow[], sources: readonly (PersonLoop | undefined)[]): Plan {
  const plan: Plan = {};
  const row = planRow(candidates, rows);
  const name = row?.planName.trim() ?? '';
  if (name !== '') plan.name = name;
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
  }
  return plan;
}

export function subscriberOf(person: PersonLoop | undefined): Subscriber {
  const out: Subscriber = {};
  if (!person) return out;
  if (person.firstName !== '') out.firstName = person.firstName;
  if (person.lastName !== '') out.lastName = person.lastName;
  if (person.id !== '') out.memberId = person.id;
  const born = d8ToIso(person.dateOfBirth);
  if (born) out.dateOfBirth = born;
  return out;
}

const RELATIONSHIPS: Readonly<Record<string, Relationship>> = { '01': 'spouse', '19': 'child', '34': 'other adult' };

export function dependentOf(person: PersonLoop): Dependent {
  const out: Dependent = {};
  if (person.firstName !== '') out.firstName = person.firstName;
  if (person.lastName !== '') out.lastName = person.lastName;
  const born = d8ToIso(person.dateOfBirth);
  if (born) out.dateOfBirth = born;
  if (person.relationship !== '') out.relationship = Object.hasOwn(RELATIONSHIPS, person.relationship) ? RELATIONSHIPS[person.relationship]! : 'other';
  return out;
}
