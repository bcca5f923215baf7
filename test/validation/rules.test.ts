import { describe, expect, it } from '@jest/globals';
import { fixedClock } from '../../lib/config/clock.js';
import { validateBody } from '../../lib/validation/index.js';
import type { SchemaName } from '../../lib/validation/schemas.js';
import { MOCK_SET_1 } from '../support/events.js';

/**
 * The rules after the schema (lib/validation/rules.ts, docs/api.md#validation): dates of coverage in
 * bounds against the date of birth and an injected "today", and names that fit the 270's NM1
 * elements once upper-cased.
 */

const { mockRequest: _mock, ...eligibility } = MOCK_SET_1;
const cob = { patientFirstName: 'Ana', patientLastName: 'Ruiz', dateOfCoverage: '06-01-2025', payerId: 'AETNA', providerId: 'PROV-1' };
/** Noon UTC on 06-15-2025: "today" is 06-16-2025 somewhere (UTC+14), so two years ahead ends on 06-16-2027. */
const now = new Date('2025-06-15T12:00:00Z');

function problems(name: SchemaName, body: unknown, clock = now) {
  const result = validateBody(name, body, { clock: fixedClock(clock) });
  return result.ok ? [] : (result.error.errors ?? []);
}

describe('dateOfCoverage in bounds', () => {
  it.each([
    ['12-31-1899', 'must not be before 01-01-1900'],
    ['06-17-2027', 'must not be more than 2 years from today (at the latest 06-16-2027)'],
    ['01-01-9999', 'must not be more than 2 years from today (at the latest 06-16-2027)'],
  ])('%s is refused on both routes: %s', (dateOfCoverage, message) => {
    expect(problems('eligibility', { ...eligibility, patientDOB: '01-01-1850', dateOfCoverage })).toEqual([{ field: 'dateOfCoverage', message }]);
    expect(problems('cob', { ...cob, dateOfCoverage })).toEqual([{ field: 'dateOfCoverage', message }]);
  });

  it('accepts 01-01-1900 and the last day two years ahead, by the injected clock', () => {
    expect(problems('eligibility', { ...eligibility, patientDOB: '01-01-1850', dateOfCoverage: '01-01-1900' })).toEqual([]);
    expect(problems('eligibility', { ...eligibility, dateOfCoverage: '06-16-2027' })).toEqual([]);
    // The same date a year later in "today" terms is still fine; a year earlier it is not.
    expect(problems('eligibility', { ...eligibility, dateOfCoverage: '06-16-2028' }, new Date('2026-06-15T12:00:00Z'))).toEqual([]);
    expect(problems('eligibility', { ...eligibility, dateOfCoverage: '06-16-2028' })).toHaveLength(1);
  });

  it("is not before the date of birth (the patient's, and on COB the dependent's)", () => {
    expect(problems('eligibility', { ...eligibility, patientDOB: '01-01-1980', dateOfCoverage: '12-31-1979' })).toEqual([
      { field: 'dateOfCoverage', message: 'must not be before the date of birth (patientDOB)' },
    ]);
    expect(problems('eligibility', { ...eligibility, patientDOB: '01-01-1980', dateOfCoverage: '01-01-1980' })).toEqual([]);
    expect(problems('cob', { ...cob, patientDOB: '07-01-2025' }, new Date('2025-08-01T00:00:00Z'))).toEqual([
      { field: 'dateOfCoverage', message: 'must not be before the date of birth (patientDOB)' },
    ]);
    expect(
      problems('cob', { ...cob, dependentFirstName: 'Leo', dependentLastName: 'Ruiz', dependentDOB: '07-01-2025' }, new Date('2025-08-01T00:00:00Z')),
    ).toEqual([{ field: 'dateOfCoverage', message: 'must not be before the date of birth (dependentDOB)' }]);
  });

  it('compares only against a date of birth the schema accepted (one message per field)', () => {
    expect(problems('eligibility', { ...eligibility, patientDOB: '02-30-1980', dateOfCoverage: '01-01-1970' })).toEqual([
      { field: 'patientDOB', message: 'must be a real calendar date in the form MM-DD-YYYY, not in the future' },
    ]);
    expect(problems('eligibility', { ...eligibility, dateOfCoverage: '02-30-2025' })).toEqual([
      { field: 'dateOfCoverage', message: 'must be a real calendar date in the form MM-DD-YYYY' },
    ]);
  });
});

describe('names fit the 270 once cleaned and upper-cased (NM103 ≤ 60, NM104 ≤ 35): refused, not truncated', () => {
  const firstTooLong = {
    field: 'patientFirstName',
    message: "must be at most 35 characters once capitalised, the X12 270's limit for a first name (letters such as ß become two)",
  };
  const lastTooLong = {
    field: 'patientLastName',
    message: "must be at most 60 characters once capitalised, the X12 270's limit for a last name (letters such as ß become two)",
  };

  it('a first name of 35 characters passes, 36 is refused', () => {
    expect(problems('eligibility', { ...eligibility, patientFirstName: 'a'.repeat(35) })).toEqual([]);
    expect(problems('eligibility', { ...eligibility, patientFirstName: 'a'.repeat(36) })).toEqual([firstTooLong]);
  });

  it('measures after cleaning: delimiters and runs of spaces collapse, so a padded 35 still fits', () => {
    expect(problems('eligibility', { ...eligibility, patientFirstName: `  ${'a'.repeat(17)}**  ${'b'.repeat(17)}  ` })).toEqual([]);
  });

  it('measures after upper-casing: ß becomes SS, ﬃ becomes FFI', () => {
    expect(problems('eligibility', { ...eligibility, patientFirstName: 'ß'.repeat(18) })).toEqual([firstTooLong]);
    expect(problems('eligibility', { ...eligibility, patientLastName: 'ß'.repeat(31) })).toEqual([lastTooLong]);
    expect(problems('eligibility', { ...eligibility, patientLastName: 'ﬃ'.repeat(21) })).toEqual([lastTooLong]);
    expect(problems('eligibility', { ...eligibility, patientLastName: 'ß'.repeat(30) })).toEqual([]);
  });

  it("holds for COB names, the dependent's included", () => {
    const dependent = { dependentFirstName: 'Leo', dependentLastName: 'Ruiz', dependentDOB: '05-05-2015' };
    expect(
      problems('cob', { ...cob, ...dependent, patientFirstName: 'a'.repeat(36), dependentFirstName: 'b'.repeat(36), dependentLastName: 'ß'.repeat(31) }).map(
        (e) => e.field,
      ),
    ).toEqual(['patientFirstName', 'dependentFirstName', 'dependentLastName']);
  });
});
