/**
 * What a 2100C/2100D (its NM1 and the segments it keeps) says about the person
 * (docs/eligibility.md#plan-and-people): name and member id, birth date, relationship, group and
 * plan numbers, plan dates. The first of each segment counts.
 */
import type { Loop } from '../x12/loops271.js';
import { element, SEGMENT, type Segment } from '../x12/segment.js';
import { periodOf, type Period } from './benefit-row.js';

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
  /** REF*6P REF02 / REF03 and REF*18 REF02 (the first of each). */
  groupNumber: string;
  groupName: string;
  planNumber: string;
  dates: Period[];
}

export function emptyPerson(): PersonLoop {
  return { lastName: '', firstName: '', idQualifier: '', id: '', dateOfBirth: '', relationship: '', groupNumber: '', groupName: '', planNumber: '', dates: [] };
}

const REF_GROUP = '6P';
const REF_PLAN = '18';
const D8 = 'D8';

export function personOf(loop: Loop): PersonLoop {
  const [nm1, ...kept] = loop.segments as [Segment, ...Segment[]];
  const is = (id: string, qualifier?: string) => (s: Segment) => s.id === id && (qualifier === undefined || element(s, 1) === qualifier);
  const birth = kept.find((s) => is(SEGMENT.demographics, D8)(s) && element(s, 2) !== '');
  const insured = kept.find((s) => is(SEGMENT.insured)(s) && element(s, 2) !== '');
  const group = kept.find((s) => is(SEGMENT.reference, REF_GROUP)(s) && (element(s, 2) !== '' || element(s, 3) !== ''));
  const plan = kept.find((s) => is(SEGMENT.reference, REF_PLAN)(s) && element(s, 2) !== '');
  return {
    lastName: element(nm1, 3),
    firstName: element(nm1, 4),
    idQualifier: element(nm1, 8),
    id: element(nm1, 9),
    dateOfBirth: birth ? element(birth, 2) : '',
    relationship: insured ? element(insured, 2) : '',
    groupNumber: group ? element(group, 2) : '',
    groupName: group ? element(group, 3) : '',
    planNumber: plan ? element(plan, 2) : '',
    dates: kept.filter(is(SEGMENT.date)).map(periodOf),
  };
}
