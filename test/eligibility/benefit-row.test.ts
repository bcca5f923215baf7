/** One EB read into a BenefitRow, and what the row means (field, coverage, Medicare part); each reading checked against the element it comes from. */
import { describe, it, expect } from '@jest/globals';
import { isActive, isInactive, isPartA, isPartB, figureOf } from '../../lib/eligibility/benefit-row.js';
import { parseDecimal } from '../../lib/eligibility/format.js';
import { ebRow, ISA } from '../fixtures/x12/build.js';

const ISA_NO_REPETITION = ISA.replace('*^*00501*', '*U*00501*');
const row = ebRow;

describe('EB01', () => {
  it.each([
    ['1', true, false],
    ['5', true, false],
    ['6', false, true],
    ['8', false, true],
    ['9', false, false],
    ['11', false, false],
    ['', false, false],
  ])('EB01 %p: active %p, inactive %p', (eb01, active, inactive) => {
    expect(isActive(row(`EB*${eb01}**30`))).toBe(active);
    expect(isInactive(row(`EB*${eb01}**30`))).toBe(inactive);
  });

  it.each([
    ['B', 'copay', '10'],
    ['A', 'coinsurance', ''],
    ['C', 'deductible', '10'],
    ['G', 'stopLoss', '10'],
  ] as const)('EB01 %p feeds field %p', (eb01, field, eb07) => {
    const read = row(`EB*${eb01}*IND*30***23*${eb07}*0.2`);
    expect(read.field).toBe(field);
    expect(figureOf(read, field)).toBe(field === 'coinsurance' ? '0.2' : '10');
  });

  it('feeds nothing for other codes, including names of Object.prototype', () => {
    for (const eb01 of ['BB', 'b', 'constructor', '__proto__', 'X']) expect(row(`EB*${eb01}*IND*30***23*10`).field).toBeUndefined();
  });
});

describe('the value a figure needs', () => {
  it('a missing or unreadable value feeds no field', () => {
    expect(row('EB*B*IND*30***27').field).toBeUndefined();
    expect(row('EB*B*IND*30***27*').field).toBeUndefined();
    expect(row('EB*B*IND*30***27*1.2.3').field).toBeUndefined();
    expect(row('EB*B*IND*30***27* -12.50 ').field).toBe('copay');
    expect(row('EB*A*IND*30***27*15').field).toBeUndefined(); // coinsurance reads EB08
  });

  it('a value counts exactly when parseDecimal reads it (the grammar the figures are formatted with)', () => {
    for (const value of ['', '.', '-', '1,000', '$5', '1e3', '1.2.3', 'abc', '10', '10.00', '.125', '-5.5', ' 7 ', '5.', '+3']) {
      expect(row(`EB*C*IND*30***23*${value}`).field === 'deductible').toBe(parseDecimal(value) !== null);
    }
  });
});

describe('EB03 and EB13', () => {
  it('EB03 codes across repetitions and components, empty pieces dropped', () => {
    expect(row('EB*B*IND*1^33:30^^98***27*10').services).toEqual(['1', '33', '30', '98']);
    expect(row('EB*B*IND*^:***27*10').services).toEqual([]);
    expect(row('EB*B*IND****27*10').services).toEqual([]);
  });

  it('splits on the repetition separator only when the interchange has one', () => {
    expect(row('EB*C*IND*33^30***23*10', ISA_NO_REPETITION).services).toEqual(['33^30']);
    expect(row('EB*C*IND*33^30***23*10').services).toEqual(['33', '30']);
  });

  it('marks an EB13 procedure row with its code, but not an empty EB13', () => {
    expect(row('EB*B*IND*30***27*15*****Y*HC:99213')).toMatchObject({ hasProcedure: true, procedure: '99213' });
    expect(row('EB*B*IND*30***27*15*****Y*AD:D0120:XX')).toMatchObject({ hasProcedure: true, procedure: 'D0120' });
    expect(row('EB*B*IND*30***27*15*****Y*HC')).toMatchObject({ hasProcedure: true, procedure: '' });
    expect(row('EB*B*IND*30***27*15*****Y*')).toMatchObject({ hasProcedure: false, procedure: '' });
    expect(row('EB*B*IND*30***27*15*****Y**X')).toMatchObject({ hasProcedure: false }); // EB14 is not EB13
  });
});

describe('EB04 and the 2110 segments', () => {
  it('Medicare parts, on any row', () => {
    expect(isPartA(row('EB*1**30*MA'))).toBe(true);
    expect(isPartB(row('EB*1**30*MB'))).toBe(true);
    expect([isPartA(row('EB*1**30*MBX')), isPartB(row('EB*1**30*MBX'))]).toEqual([false, false]);
  });

  it('keeps the 2110 DTPs and MSGs in order, and the first REF*IG with a value', () => {
    const read = row('EB*R**30~DTP*346*D8*20250101~REF*IG*~REF*IG*M1~REF*IG*M2~MSG*ONE~DTP*347*D8*20251231~MSG*TWO');
    expect(read.dates).toEqual([
      { qualifier: '346', format: 'D8', value: '20250101' },
      { qualifier: '347', format: 'D8', value: '20251231' },
    ]);
    expect(read.messages).toEqual(['ONE', 'TWO']);
    expect(read.memberRef).toBe('M1');
    expect(read.order).toBe(7);
  });
});
