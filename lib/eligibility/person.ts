/**
 * What a 2100C/2100D (its NM1 and the segments it keeps) says about the person
 * (docs/eligibility.md#plan-and-people): name and member id, birth date, relationship, group and
 * plan numbers, plan dates. The first of each segment counts.
 */
import type { Loop } from '../x12/loops271.js';
import { element, SEGMENT } from '../x12/segment.js';
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

/** One pass over the 2100's segments; the first DMG*D8, INS, REF*6P and REF*18 with a value count. */
export function personOf(loop: Loop): PersonLoop {
  const segments = loop.segments;
  const nm1 = segments[0]!;
  const person: PersonLoop = {
    lastName: element(nm1, 3),
    firstName: element(nm1, 4),
    idQualifier: element(nm1, 8),
    id: element(nm1, 9),
    dateOfBirth: '',
    relationship: '',
    groupNumber: '',
    groupName: '',
    planNumber: '',
    dates: [],
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
        } else if (qualifier === REF_PLAN && person.planNumber === '') person.planNumber = element(s, 2);
        break;
      }
      case SEGMENT.date:
        person.dates.push(periodOf(s));
    }
  }
  return person;
}
