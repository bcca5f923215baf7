import { describe, it, expect } from '@jest/globals';
import { formatMoney, formatRate, max, parseDecimal, roundUnits, subtract, ZERO, type Decimal } from '../../lib/eligibility/format.js';

const d = (s: string) => {
  const v = parseDecimal(s);
  if (!v) throw new Error(`not a decimal: ${s}`);
  return v;
};

describe('parseDecimal', () => {
  it('parses X12 decimals exactly, keeping scale', () => {
    expect(parseDecimal('10')).toEqual({ units: 10n, scale: 0 });
    expect(parseDecimal('10.00')).toEqual({ units: 1000n, scale: 2 });
    expect(parseDecimal('.125')).toEqual({ units: 125n, scale: 3 });
    expect(parseDecimal('-5.5')).toEqual({ units: -55n, scale: 1 });
    expect(parseDecimal('007')).toEqual({ units: 7n, scale: 0 });
    expect(parseDecimal('5.')).toEqual({ units: 5n, scale: 0 });
  });
  it('rejects non-decimals', () => {
    for (const s of ['', '.', '-', '1,000', '$5', '1e3', '1.2.3', 'abc']) expect(parseDecimal(s)).toBeNull();
  });
});

/** A decimal as money text: rounded to the cent (the one rounding), then formatted. */
const money = (value: Decimal) => formatMoney(roundUnits(value, 2));

describe('exact arithmetic', () => {
  it('subtracts without float drift', () => {
    // 0.3 - 0.1 is 0.19999999999999998 in floats.
    expect(money(subtract(d('0.3'), d('0.1')))).toBe('$0.20');
    expect(subtract(d('1000'), d('749.995'))).toEqual({ units: 250005n, scale: 3 });
  });
  it('max compares across scales', () => {
    expect(max(subtract(d('1'), d('2')), ZERO)).toBe(ZERO);
    expect(max(d('0.10'), d('0.1'))).toEqual(d('0.10'));
  });
  it('rounds half away from zero', () => {
    expect(roundUnits(d('0.005'), 2)).toBe(1n);
    expect(roundUnits(d('0.0049'), 2)).toBe(0n);
    expect(roundUnits(d('-0.005'), 2)).toBe(-1n);
    expect(roundUnits(d('2.675'), 2)).toBe(268n); // float toFixed gives 2.67
  });
});

describe('formatMoney: cents as money text', () => {
  it('formats with US grouping and cents', () => {
    expect(money(d('1234.5'))).toBe('$1,234.50');
    expect(money(d('0'))).toBe('$0.00');
    expect(money(d('1000000'))).toBe('$1,000,000.00');
    expect(money(d('999.995'))).toBe('$1,000.00');
    expect(money(d('100'))).toBe('$100.00');
    expect(money(d('-5'))).toBe('-$5.00');
    expect(formatMoney(1n)).toBe('$0.01');
    expect(formatMoney(12345678901234567899n)).toBe('$123,456,789,012,345,678.99');
  });
  it('is exact on both sides of 2^53 cents (doubles below, bigints above)', () => {
    expect([formatMoney(9007199254740991n), formatMoney(9007199254740992n), formatMoney(-9007199254740993n)]).toEqual([
      '$90,071,992,547,409.91',
      '$90,071,992,547,409.92',
      '-$90,071,992,547,409.93',
    ]);
    expect([formatMoney(5n), formatMoney(100n), formatMoney(-1n), formatMoney(99999n)]).toEqual(['$0.05', '$1.00', '-$0.01', '$999.99']);
  });
});

describe('formatRate: basis points as percent text', () => {
  it('shows hundredths of a percent, trailing zeros dropped', () => {
    expect([formatRate(2000n), formatRate(1250n), formatRate(0n), formatRate(10000n), formatRate(1235n), formatRate(1n), formatRate(-500n)]).toEqual([
      '20%',
      '12.5%',
      '0%',
      '100%',
      '12.35%',
      '0.01%',
      '-5%',
    ]);
    expect([formatRate(1005n), formatRate(1050n), formatRate(123456789000n), formatRate(900719925474099300n)]).toEqual([
      '10.05%',
      '10.5%',
      '1234567890%',
      '9007199254740993%',
    ]);
  });
});
