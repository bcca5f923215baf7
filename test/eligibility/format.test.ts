import { describe, it, expect } from '@jest/globals';
import { basisPointsOf, centsOf, formatMoney, max, moneyOrNA, parseDecimal, percentText, roundUnits, subtract, ZERO } from '../../lib/eligibility/format.js';

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

describe('exact arithmetic', () => {
  it('subtracts without float drift', () => {
    // 0.3 - 0.1 is 0.19999999999999998 in floats.
    expect(formatMoney(subtract(d('0.3'), d('0.1')))).toBe('$0.20');
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

describe('formatMoney', () => {
  it('formats with US grouping and cents', () => {
    expect(formatMoney(d('1234.5'))).toBe('$1,234.50');
    expect(formatMoney(d('0'))).toBe('$0.00');
    expect(formatMoney(d('1000000'))).toBe('$1,000,000.00');
    expect(formatMoney(d('999.995'))).toBe('$1,000.00');
    expect(formatMoney(d('100'))).toBe('$100.00');
    expect(formatMoney(d('-5'))).toBe('-$5.00');
  });
  it('N/A when there is no value', () => {
    expect(moneyOrNA(null)).toBe('N/A');
    expect(moneyOrNA(d('20'))).toBe('$20.00');
  });
});

describe('percentText: a fraction (EB08) as percent text', () => {
  it('multiplies the fraction by 100 and drops trailing zeros', () => {
    expect(percentText('.2')).toBe('20%');
    expect(percentText('0.125')).toBe('12.5%');
    expect(percentText('0')).toBe('0%');
    expect(percentText('1')).toBe('100%');
    expect(percentText('0.20')).toBe('20%');
    expect(percentText('0.12345')).toBe('12.35%');
    expect(percentText('0.123449')).toBe('12.34%');
    expect(percentText('0.33335')).toBe('33.34%');
  });
  it('N/A when there is no value', () => {
    expect(percentText('')).toBe('N/A');
    expect(percentText('abc')).toBe('N/A');
  });
});

describe('centsOf and basisPointsOf: the formatter read back', () => {
  it('gives back, exactly, every figure the formatter writes', () => {
    for (const text of ['0', '0.01', '0.1', '7', '1234.5', '999.995', '1000000', '90071992547409.91', '123456789012345678.99']) {
      const value = roundUnits(d(text), 2);
      expect([text, centsOf(formatMoney(d(text)))]).toEqual([text, value]);
    }
    for (const text of ['0', '.2', '0.125', '1', '0.12345', '0.0001', '-0.05', '12345678.9']) {
      const percent = d(text);
      expect([text, basisPointsOf(percentText(text))]).toEqual([text, roundUnits({ units: percent.units, scale: percent.scale - 2 }, 2)]);
    }
  });
  it('N/A, a negative amount and text that is not a figure are no value', () => {
    expect([centsOf('N/A'), centsOf('-$10.00'), centsOf('2000'), centsOf('$'), centsOf('$1.2.3')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect([basisPointsOf('N/A'), basisPointsOf('12.5'), basisPointsOf('%'), basisPointsOf('x%')]).toEqual([undefined, undefined, undefined, undefined]);
    expect([centsOf('$0.00'), centsOf('$2,000.00'), basisPointsOf('10%'), basisPointsOf('12.5%')]).toEqual([0n, 200000n, 1000n, 1250n]);
  });
});
