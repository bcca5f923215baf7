/** One EB read in place into the ranks §4.3 compares; each reading checked against the element it comes from. */
import { describe, it, expect } from '@jest/globals';
import {
  ACTIVE,
  COINSURANCE,
  COPAY,
  DEDUCTIBLE,
  EMPTY_TIME,
  INACTIVE,
  NO_FIELD,
  NO_STATUS,
  OTHER_TIME,
  PART_A,
  PART_B,
  readBenefitAt,
  STOP_LOSS,
  type BenefitRow,
} from '../../lib/eligibility/benefit-row.js';
import { parseDecimal } from '../../lib/eligibility/format.js';
import { codesOf } from '../../lib/x12/scan.js';
import type { Delimiters } from '../../lib/x12/scan.js';
import { tokenize } from '../support/x12-reference/tokenizer.js';

const DELIMITERS: Delimiters = { element: '*', component: ':', repetition: '^', segment: '~' };

function row(eb: string, delimiters: Delimiters = DELIMITERS): BenefitRow {
  return readBenefitAt(eb, codesOf(eb), 0, eb.length, delimiters, 7);
}

describe('EB01', () => {
  it.each([
    ['1', ACTIVE],
    ['5', ACTIVE],
    ['6', INACTIVE],
    ['8', INACTIVE],
    ['9', NO_STATUS],
    ['11', NO_STATUS],
    ['', NO_STATUS],
  ])('EB01 %p has status %p', (eb01, status) => {
    expect(row(`EB*${eb01}**30`).status).toBe(status);
  });

  it.each([
    ['B', COPAY, '10'],
    ['A', COINSURANCE, ''],
    ['C', DEDUCTIBLE, '10'],
    ['G', STOP_LOSS, '10'],
  ])('EB01 %p feeds field %p', (eb01, field, eb07) => {
    const read = row(`EB*${eb01}*IND*30***23*${eb07}*0.2`);
    expect(read.field).toBe(field);
    expect(read.value).toBe(field === COINSURANCE ? '0.2' : '10');
  });

  it('feeds nothing for other codes, including names of Object.prototype', () => {
    for (const eb01 of ['BB', 'b', 'constructor', '__proto__', 'X']) expect(row(`EB*${eb01}*IND*30***23*10`).field).toBe(NO_FIELD);
  });
});

describe('what drops a figure row', () => {
  it('marks an EB13 procedure row (it feeds procedures only), but not an empty EB13', () => {
    expect(row('EB*B*IND*30***27*15*****Y*HC:99213')).toMatchObject({ field: COPAY, hasProcedure: true, procedure: '99213' });
    expect(row('EB*B*IND*30***27*15*****Y*AD:D0120:XX')).toMatchObject({ hasProcedure: true, procedure: 'D0120' });
    expect(row('EB*B*IND*30***27*15*****Y*')).toMatchObject({ field: COPAY, hasProcedure: false, procedure: '' });
    expect(row('EB*B*IND*30***27*15*****Y**X')).toMatchObject({ field: COPAY, hasProcedure: false }); // EB14 is not EB13
  });

  it('a missing or unreadable value', () => {
    expect(row('EB*B*IND*30***27').field).toBe(NO_FIELD);
    expect(row('EB*B*IND*30***27*').field).toBe(NO_FIELD);
    expect(row('EB*B*IND*30***27*1.2.3').field).toBe(NO_FIELD);
    expect(row('EB*B*IND*30***27* -12.50 ').field).toBe(COPAY);
    expect(row('EB*A*IND*30***27*15').field).toBe(NO_FIELD); // coinsurance reads EB08
  });

  it('a value counts exactly when parseDecimal reads it (the grammar the figures are formatted with)', () => {
    for (const value of ['', '.', '-', '1,000', '$5', '1e3', '1.2.3', 'abc', '10', '10.00', '.125', '-5.5', ' 7 ', '5.', '+3']) {
      expect(row(`EB*C*IND*30***23*${value}`).field === DEDUCTIBLE).toBe(parseDecimal(value) !== null);
    }
  });

  it('EB03 codes that fit no plan-wide slot keep the field (benefits per service use them) with service -1', () => {
    expect(row('EB*C*IND*98***23*10')).toMatchObject({ field: DEDUCTIBLE, service: -1 }); // 98 is for copay and coinsurance only
    expect(row('EB*B*IND*98***27*10')).toMatchObject({ field: COPAY, service: 1 });
    expect(row('EB*B*IND*33***27*10')).toMatchObject({ field: COPAY, service: -1, services: ['33'] });
  });

  it('96 ranks as 30 on a Part B row only', () => {
    expect(row('EB*C*IND*96*MB**23*257').service).toBe(0);
    expect(row('EB*C*IND*96*MA**23*257').service).toBe(-1);
    expect(row('EB*C*IND*96***23*257').service).toBe(-1);
  });
});

describe('EB03 service rank', () => {
  it('takes the best code across repetitions and components', () => {
    expect(row('EB*B*IND*1^33:30^^98***27*10').service).toBe(0);
    expect(row('EB*B*IND*1^98***27*10').service).toBe(1);
    expect(row('EB*B*IND*1***27*10').service).toBe(3);
    expect(row('EB*C*IND*1^33***23*10').service).toBe(2);
  });

  it('ranks "no code" between 98 and 1 (copay) or between 30 and 1 (deductible)', () => {
    expect(row('EB*B*IND****27*10').service).toBe(2);
    expect(row('EB*B*IND*^:***27*10').service).toBe(2); // separators only: still no code
    expect(row('EB*C*IND****23*10').service).toBe(1);
  });

  it('splits on the repetition separator only when the interchange has one', () => {
    const noRepetition: Delimiters = { ...DELIMITERS, repetition: null };
    expect(row('EB*C*IND*33^30***23*10', noRepetition)).toMatchObject({ service: -1, services: ['33^30'] }); // one code
    expect(row('EB*C*IND*33^30***23*10').service).toBe(0);
  });
});

describe('levels, times and networks', () => {
  it('EB02', () => {
    expect(row('EB*B*IND*30***27*10')).toMatchObject({ individual: 0, family: -1 });
    expect(row('EB*B*EMP*30***27*10')).toMatchObject({ individual: 1, family: -1 });
    expect(row('EB*B*FAM*30***27*10')).toMatchObject({ individual: -1, family: 0 });
    expect(row('EB*B**30***27*10')).toMatchObject({ individual: 2, family: 2 });
    expect(row('EB*C**30***23*10')).toMatchObject({ individual: 2, family: -1 }); // an empty EB02 deductible is the individual's
    expect(row('EB*B*SPO*30***27*10')).toMatchObject({ individual: -1, family: -1 });
  });

  it('EB06', () => {
    expect(row('EB*C*IND*30***23*10')).toMatchObject({ time: 23, total: 0 });
    expect(row('EB*C*IND*30***25*10')).toMatchObject({ time: 25, total: 3 });
    expect(row('EB*C*IND*30****10')).toMatchObject({ time: EMPTY_TIME, total: 4 });
    expect(row('EB*C*IND*30***29*10')).toMatchObject({ time: 29, total: -1 });
    expect(row('EB*C*IND*30***023*10')).toMatchObject({ time: OTHER_TIME, total: -1 });
    expect(row('EB*C*IND*30***2A*10')).toMatchObject({ time: OTHER_TIME, total: -1 });
  });

  it('EB12', () => {
    expect(row('EB*B*IND*30***27*10*****Y')).toMatchObject({ networkIn: 0, networkOut: -1 });
    expect(row('EB*B*IND*30***27*10*****N')).toMatchObject({ networkIn: -1, networkOut: 0 });
    expect(row('EB*B*IND*30***27*10*****W')).toMatchObject({ networkIn: 1, networkOut: 1 });
    expect(row('EB*B*IND*30***27*10*****U')).toMatchObject({ networkIn: 1, networkOut: 1 });
    expect(row('EB*B*IND*30***27*10')).toMatchObject({ networkIn: 1, networkOut: 1 });
    for (const eb12 of ['YY', 'X', 'constructor']) expect(row(`EB*B*IND*30***27*10*****${eb12}`)).toMatchObject({ networkIn: -1, networkOut: -1 });
  });

  it('EB04 Medicare parts, on any row', () => {
    expect(row('EB*1**30*MA').medicare).toBe(PART_A);
    expect(row('EB*1**30*MB').medicare).toBe(PART_B);
    expect(row('EB*1**30*MC').medicare).toBe(0);
    expect(row('EB*1**30*MBX').medicare).toBe(0);
  });
});

describe('reading inside a larger text', () => {
  it('stays within the segment and keeps its order', () => {
    const text = 'XX*1~EB*B*IND*30***27*15~EB*C*FAM*30***23*999';
    const start = text.indexOf('EB*B');
    const read = readBenefitAt(text, codesOf(text), start, text.indexOf('~', start), DELIMITERS, 3);
    expect(read).toMatchObject({ order: 3, field: COPAY, value: '15', individual: 0, networkIn: 1 });
  });

  it('reads tokenizer segments through their spans, with their own delimiters', () => {
    const isa = 'ISA|00|          |00|          |ZZ|TESTPAYER      |ZZ|TESTSUBMIT     |250101|1200|!|00501|000000042|0|P|>\n';
    const tokens = tokenize(`${isa}EB|C|IND|1!30>33|||23|500\n`);
    if (!tokens.ok) throw new Error(tokens.error.message);
    const eb = tokens.segments[1]!;
    expect(readBenefitAt(eb.text, codesOf(eb.text), eb.offset, eb.stop, eb.delimiters, 0)).toEqual(expect.objectContaining({ field: DEDUCTIBLE, service: 0, total: 0, value: '500', services: ['1', '30', '33'] }));
  });

  it('reads EBs of different inputs in one call, each against its own text', () => {
    const read = (text: string) => {
      const tokens = tokenize(text);
      if (!tokens.ok) throw new Error(tokens.error.message);
      return tokens.segments.filter((segment) => segment.id === 'EB');
    };
    const isa = 'ISA*00*          *00*          *ZZ*TESTPAYER      *ZZ*TESTSUBMIT     *250101*1200*^*00501*000000042*0*P*:~';
    const [first, second] = read(`${isa}EB*B*IND*30***27*15~EB*1**30~`);
    const [other] = read(`${isa}NM1*IL*1*LONGER PREFIX SHIFTS EVERY OFFSET~EB*A*FAM*98*****0.2~`);
    const rows = [first!, other!, second!].map((eb, order) => readBenefitAt(eb.text, codesOf(eb.text), eb.offset, eb.stop, eb.delimiters, order));
    expect(rows).toEqual([
      expect.objectContaining({ order: 0, field: COPAY, value: '15', individual: 0 }),
      expect.objectContaining({ order: 1, field: COINSURANCE, value: '0.2', family: 0, service: 1 }),
      expect.objectContaining({ order: 2, field: NO_FIELD, status: ACTIVE }),
    ]);
  });
});
