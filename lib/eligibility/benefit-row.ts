/**
 * One EB of the patient's loop as the answer reads it (docs/eligibility.md#how-the-271-is-read):
 * its elements as text, and what its 2110 loop keeps (DTP, MSG, REF*IG) and the 2120 payer entity.
 * What a row means for the answer (its figure, coverage, Medicare part) is asked by the functions
 * below; how rows rank for a slot lives in summary.ts.
 */
import type { BenefitLoop, Loop } from '../x12/loops271.js';
import { element, repetitions, SEGMENT, type Segment } from '../x12/segment.js';
import { exactAmountOf, rateOf, type Rate } from './figures.js';
import type { Decimal } from './format.js';

/** A DTP: qualifier (DTP01), format (D8 / RD8) and value, as written. */
export interface Period {
  qualifier: string;
  format: string;
  value: string;
}

/** An HSD (health care services delivery) of the row's 2110: HSD01, HSD02, HSD05, HSD06 as written. */
export interface Delivery {
  quantityQualifier: string;
  quantity: string;
  timePeriod: string;
  periodCount: string;
}

/** The 2120 NM1 of a row (the first whose NM101 names a payer: PR, PRP, SEP, TTP). */
interface RelatedEntity {
  name: string;
  idQualifier: string;
  id: string;
}

export interface BenefitRow {
  /** Document order among the transaction's EBs. */
  order: number;
  /** EB01 … EB12 as written ('' when absent). */
  info: string;
  level: string;
  /** EB03's codes (repetitions, and components of a damaged element), in order. */
  services: string[];
  insuranceType: string;
  planName: string;
  timePeriod: string;
  amount: string;
  percent: string;
  /** EB07 read exactly (docs/eligibility.md#figures-inside-the-service), undefined when it is not a decimal. */
  exactAmount: Decimal | undefined;
  /** EB08 (a fraction) as basis points, NOT_KNOWN when it is not a decimal. */
  rate: Rate;
  quantityQualifier: string;
  quantity: string;
  authorization: string;
  network: string;
  /** The figure the row gives (EB01 B, A, C, G whose EB07/EB08 is a number), if any. */
  field: Field | undefined;
  /** Whether EB13 (a procedure) is present, and its code (component 2). */
  hasProcedure: boolean;
  procedure: string;
  /** The row's own 2110 DTPs, MSG texts, HSDs, REF*IG and 2120 payer entity. */
  dates: Period[];
  messages: string[];
  deliveries: Delivery[];
  memberRef: string;
  entityMemberRef: string;
  /** REF*18 (plan number) REF02 of the 2110, else of its 2120 loops ('' when none). */
  planRef: string;
  entity: RelatedEntity | undefined;
  /** The first 2120 NM1 of any kind (a primary care provider, a vendor to contact): its name and NPI ('' when none). */
  related: { name: string; npi: string } | undefined;
}

/** The four figures a row can give, and the EB01 (and the element holding its value) of each. */
export type Field = 'copay' | 'coinsurance' | 'deductible' | 'stopLoss';
const FIELDS: Readonly<Record<string, { field: Field; value: number }>> = {
  B: { field: 'copay', value: 7 },
  A: { field: 'coinsurance', value: 8 },
  C: { field: 'deductible', value: 7 },
  G: { field: 'stopLoss', value: 7 },
};

const PAYER_ENTITIES: ReadonlySet<string> = new Set(['PR', 'PRP', 'SEP', 'TTP']);
const MEMBER_ID_REF = 'IG';
const PLAN_REF = '18';

/** An X12 decimal: blanks around, optional sign, digits with at most one point. */
const DECIMAL = /^ *[+-]?(\d+\.?\d*|\.\d+) *$/;
const isDecimal = (text: string): boolean => DECIMAL.test(text);

/** The field an EB fills (EB01 B, A, C, G whose EB07/EB08 is a number), if any. */
function fieldOf(eb: Segment): Field | undefined {
  const info = element(eb, 1);
  const rule = Object.hasOwn(FIELDS, info) ? FIELDS[info]! : undefined;
  return rule && isDecimal(element(eb, rule.value)) ? rule.field : undefined;
}

/** The text of a row's figure: EB08 for coinsurance, EB07 otherwise. */
export const figureOf = (row: BenefitRow, field: Field): string => (field === 'coinsurance' ? row.percent : row.amount);

/** EB01 1–5: active coverage; 6–8: inactive. */
export const isActive = (row: BenefitRow): boolean => /^[1-5]$/.test(row.info);
export const isInactive = (row: BenefitRow): boolean => /^[6-8]$/.test(row.info);
/** EB04 MA (Medicare Part A) and MB (Part B). */
export const isPartA = (row: BenefitRow): boolean => row.insuranceType === 'MA';
export const isPartB = (row: BenefitRow): boolean => row.insuranceType === 'MB';
export const isMedicare = (row: BenefitRow): boolean => isPartA(row) || isPartB(row);
export const lists = (row: BenefitRow, code: string): boolean => row.services.includes(code);

/** EB03 30: health benefit plan coverage. */
export const HEALTH_PLAN = '30';
/**
 * Whether the row answers for the code where status and SERVICE_NOT_RETURNED are asked
 * (docs/eligibility.md#plan-level-rows): it lists the code, or it is an EB01 1–8 row with no EB03,
 * which speaks for the whole plan (30), as old 4010 Medicare replies' `EB*1*IND**MB` do.
 */
export const answersFor = (row: BenefitRow, code: string): boolean =>
  lists(row, code) || (code === HEALTH_PLAN && row.services.length === 0 && /^[1-8]$/.test(row.info));

/** A DTP segment as a Period. */
export const periodOf = (dtp: Segment): Period => ({ qualifier: element(dtp, 1), format: element(dtp, 2), value: element(dtp, 3) });

/** EB03's codes: split on repetitions, then components (damage), empty pieces dropped. */
function servicesOf(eb: Segment): string[] {
  const value = element(eb, 3);
  if (value === '') return [];
  const { component } = eb.delimiters;
  const pieces = repetitions(eb, 3);
  if (!value.includes(component) && !pieces.includes('')) return pieces;
  const codes: string[] = [];
  for (const piece of pieces) {
    for (const code of piece.split(component)) if (code !== '') codes.push(code);
  }
  return codes;
}

/** EB13-2: after the first component separator, up to the next component or repetition separator. */
function procedureOf(eb: Segment): string {
  const { component, repetition } = eb.delimiters;
  const eb13 = element(eb, 13);
  const first = eb13.indexOf(component);
  if (first < 0) return '';
  const code = eb13.slice(first + 1).split(component)[0]!;
  return repetition === null ? code : code.split(repetition)[0]!;
}

const deliveryOf = (hsd: Segment): Delivery => ({
  quantityQualifier: element(hsd, 1),
  quantity: element(hsd, 2),
  timePeriod: element(hsd, 5),
  periodCount: element(hsd, 6),
});

/** What a 2110 (or 2120) keeps that the answer reads: DTPs, MSG texts, HSDs, the first REF*IG and REF*18 with a value. */
interface Kept {
  dates: Period[];
  messages: string[];
  deliveries: Delivery[];
  memberRef: string;
  planRef: string;
}

/** One pass over a loop's segments from `from` on. */
function keptOf(segments: readonly Segment[], from: number, into: Kept): Kept {
  for (let i = from; i < segments.length; i++) {
    const segment = segments[i]!;
    switch (segment.id) {
      case SEGMENT.date:
        into.dates.push(periodOf(segment));
        break;
      case SEGMENT.message:
        into.messages.push(element(segment, 1));
        break;
      case SEGMENT.delivery:
        into.deliveries.push(deliveryOf(segment));
        break;
      case SEGMENT.reference: {
        const value = element(segment, 2);
        if (value === '') break;
        const qualifier = element(segment, 1);
        if (qualifier === MEMBER_ID_REF && into.memberRef === '') into.memberRef = value;
        else if (qualifier === PLAN_REF && into.planRef === '') into.planRef = value;
      }
    }
  }
  return into;
}

const nothingKept = (): Kept => ({ dates: [], messages: [], deliveries: [], memberRef: '', planRef: '' });
/** What a 2110 without 2120 loops has of them: nothing (never written to: no loop to read). */
const NO_ENTITY_REFS: Readonly<Kept> = Object.freeze(nothingKept());

/** The first 2120 that names a payer. */
function entityOf(related: readonly Loop[]): RelatedEntity | undefined {
  for (const loop of related) {
    const nm1 = loop.segments[0]!;
    if (PAYER_ENTITIES.has(element(nm1, 1))) return { name: element(nm1, 3), idQualifier: element(nm1, 8), id: element(nm1, 9) };
  }
  return undefined;
}

const PERSON = '1';
const NPI = 'XX';

/** The first 2120 NM1's name (a person's as "FIRST LAST", else NM103) and its NPI (NM109 when NM108 is XX). */
function relatedOf(related: readonly Loop[]): { name: string; npi: string } | undefined {
  const nm1 = related[0]?.segments[0];
  if (nm1 === undefined) return undefined;
  const last = element(nm1, 3).trim();
  const first = element(nm1, 2) === PERSON ? element(nm1, 4).trim() : '';
  return { name: first === '' ? last : `${first} ${last}`.trim(), npi: element(nm1, 8) === NPI ? element(nm1, 9).trim() : '' };
}

/** The row of one 2110 loop. */
export function benefitRowOf(loop: BenefitLoop): BenefitRow {
  const eb = loop.segments[0]!;
  const own = keptOf(loop.segments, 1, nothingKept());
  // The 2120 loops' REFs: the member id and plan number of another payer.
  const entities = loop.related.length === 0 ? NO_ENTITY_REFS : nothingKept();
  for (const related of loop.related) keptOf(related.segments, 0, entities);
  const eb13 = element(eb, 13);
  const amount = element(eb, 7);
  const percent = element(eb, 8);
  return {
    order: loop.order,
    info: element(eb, 1),
    level: element(eb, 2),
    services: servicesOf(eb),
    insuranceType: element(eb, 4),
    planName: element(eb, 5),
    timePeriod: element(eb, 6),
    amount,
    percent,
    exactAmount: exactAmountOf(amount),
    rate: rateOf(percent),
    quantityQualifier: element(eb, 9),
    quantity: element(eb, 10),
    authorization: element(eb, 11),
    network: element(eb, 12),
    field: fieldOf(eb),
    hasProcedure: eb13 !== '',
    procedure: eb13 === '' ? '' : procedureOf(eb),
    dates: own.dates,
    messages: own.messages,
    deliveries: own.deliveries,
    memberRef: own.memberRef,
    entityMemberRef: entities.memberRef,
    planRef: own.planRef || entities.planRef,
    entity: loop.related.length === 0 ? undefined : entityOf(loop.related),
    related: loop.related.length === 0 ? undefined : relatedOf(loop.related),
  };
}
