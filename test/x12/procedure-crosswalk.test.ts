/**
 * The procedure crosswalk (docs/eligibility.md#procedure-crosswalk): the documented ranges, each end and
 * a code inside, the narrow ranges before the wide ones, codes of another shape, and the line's service
 * type and its source.
 */
import { describe, expect, it } from '@jest/globals';
import { PROCEDURE_CROSSWALK, serviceTypeOfLine, serviceTypeOfProcedure } from '../../lib/x12/procedure-crosswalk.js';
import { SERVICE_TYPE_CODES } from '../../lib/x12/service-type-codes.js';

describe('serviceTypeOfProcedure', () => {
  it.each([
    ['99202', '98'],
    ['99213', '98'],
    ['99215', '98'],
    ['99281', '86'],
    ['99285', '86'],
    ['S9083', 'UC'],
    ['S9088', 'UC'],
    ['99381', 'BZ'],
    ['99397', 'BZ'],
    ['90785', 'MH'],
    ['90837', 'MH'],
    ['90899', 'MH'],
    ['97010', 'PT'],
    ['97110', 'PT'],
    ['97799', 'PT'],
    ['98940', '33'],
    ['98943', '33'],
    ['80047', '5'],
    ['85025', '5'],
    ['89398', '5'],
    ['70551', '62'],
    ['72148', '62'],
    ['74177', '62'],
    ['70450', '62'],
    ['71250', '62'],
    ['70010', '4'],
    ['71046', '4'],
    ['77067', '4'],
    ['79999', '4'],
    ['10004', '2'],
    ['27447', '2'],
    ['69990', '2'],
    ['00100', '7'],
    ['01999', '7'],
    ['D0100', '35'],
    ['D0120', '35'],
    ['D9999', '35'],
    ['92002', 'AL'],
    ['92014', 'AL'],
  ])('%s → %s', (code, serviceType) => {
    expect(serviceTypeOfProcedure(code)).toBe(serviceType);
  });

  it.each([
    ['99216', 'just past office E/M'],
    ['99201', 'before office E/M (deleted code)'],
    ['J1100', 'a HCPCS drug'],
    ['S9084', 'a HCPCS S code beside the urgent care ones'],
    ['0042T', 'a CPT category III code (never anesthesia by string order)'],
    ['0001F', 'a CPT category II code'],
    ['D0099', 'below the CDT range'],
    ['92015', 'refraction, after the eye exams'],
    ['99999', 'no range'],
  ])('%s (%s) → 30', (code) => {
    expect(serviceTypeOfProcedure(code)).toBe('30');
  });

  it('every range maps to an X12 005010 service type and its ends are in order', () => {
    for (const range of PROCEDURE_CROSSWALK) {
      expect(Object.hasOwn(SERVICE_TYPE_CODES, range.serviceType)).toBe(true);
      expect(range.from <= range.to).toBe(true);
      expect(range.from.length).toBe(5);
    }
  });
});

describe('serviceTypeOfLine', () => {
  it('the line’s own service type wins; else the crosswalk; else 30 as the request’s default', () => {
    expect(serviceTypeOfLine({ procedureCode: '99283', serviceTypeCode: 'UC' })).toEqual({ code: 'UC', source: 'request' });
    expect(serviceTypeOfLine({ procedureCode: '99283' })).toEqual({ code: '86', source: 'crosswalk' });
    expect(serviceTypeOfLine({ procedureCode: 'J1100' })).toEqual({ code: '30', source: 'crosswalk' });
    expect(serviceTypeOfLine({})).toEqual({ code: '30', source: 'request' });
  });
});
