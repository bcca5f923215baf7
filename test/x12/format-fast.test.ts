/**
 * The summary formats figures from text with doubles when exact (format.ts moneyTextOrNA and
 * percentTextOrNA); they must agree with the BigInt path (parseDecimal → moneyOrNA/percentOrNA).
 */
import { describe, it, expect } from '@jest/globals';
import { moneyOrNA, moneyTextOrNA, parseDecimal, percentOrNA, percentTextOrNA } from '../../lib/eligibility/format.js';

const EDGES = [
  '', '.', '-', '+', ' ', '0', '-0', '-0.001', '-0.005', '0.005', '0.004999', '0.125', '.125', '12.5', '1234.5', '1234567.891',
  '999999999999999', '9999999999999.995', '99999999999999.99', '1e3', '1,000', ' 7 ', '\t7', '5.', '-5.5', '007',
  '0000000000000000000001.5', '123456789012345678', '0.0000000000000001', '0.2', '0.15', '-0.0049', '-0.00005', '0.00005',
];

function randomDecimals(count: number): string[] {
  let seed = 12345;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const length = 1 + Math.floor(rnd() * 18);
    const point = Math.floor(rnd() * (length + 2));
    let s = rnd() < 0.2 ? '-' : '';
    for (let k = 0; k < length; k++) s += (k === point ? '.' : '') + String(Math.floor(rnd() * 10));
    out.push(s);
  }
  return out;
}

describe('figures from text without BigInt', () => {
  it('agree with the BigInt path on edge cases', () => {
    for (const s of EDGES) {
      expect([s, moneyTextOrNA(s)]).toEqual([s, moneyOrNA(parseDecimal(s))]);
      expect([s, percentTextOrNA(s)]).toEqual([s, percentOrNA(parseDecimal(s))]);
    }
  });
  it('agree with the BigInt path on 20,000 random decimals (up to 18 digits)', () => {
    const bad = randomDecimals(20000).filter((s) => moneyTextOrNA(s) !== moneyOrNA(parseDecimal(s)) || percentTextOrNA(s) !== percentOrNA(parseDecimal(s)));
    expect(bad).toEqual([]);
  });
  it('formats as the contract shows', () => {
    expect(moneyTextOrNA('1234.5')).toBe('$1,234.50');
    expect(moneyTextOrNA('-0.001')).toBe('$0.00');
    expect(moneyTextOrNA('abc')).toBe('N/A');
    expect(percentTextOrNA('.125')).toBe('12.5%');
    expect(percentTextOrNA('0.2')).toBe('20%');
  });
});
