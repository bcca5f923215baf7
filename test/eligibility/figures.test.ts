/**
 * Figures inside the service (docs/eligibility.md#figures-inside-the-service): the 271's decimals
 * become cents and basis points once, exactly, rounded half away from zero; "not known" is a value;
 * the REST answer formats them, and the numbers stay behind the body for the other edges.
 */
import { describe, it, expect } from '@jest/globals';
import { moneyOf, NOT_KNOWN, rateOf } from '../../lib/eligibility/figures.js';
import { interpret271, interpret271Figures } from '../../lib/eligibility/interpret.js';
import { mockEligibility } from '../../lib/eligibility/mock.js';
import { moneyText, rateText } from '../../lib/eligibility/present.js';
import { MOCK_PATIENTS } from '../../lib/mock/patients.js';
import { response271 } from '../fixtures/x12/build.js';

describe('EB07 → cents', () => {
  it('reads the decimal exactly and rounds half away from zero to the cent', () => {
    expect(['1234.5', '20', '007', '5.', '.5', ' 25 ', '+3'].map(moneyOf)).toEqual([123450n, 2000n, 700n, 500n, 50n, 2500n, 300n]);
    // .005 is half a cent: up, away from zero; anything below stays down.
    expect(['0.005', '0.0049999', '10.005', '10.004', '2.675', '999.995'].map(moneyOf)).toEqual([1n, 0n, 1001n, 1000n, 268n, 100000n]);
  });

  it('keeps large amounts exact, past 2^53', () => {
    expect(moneyOf('90071992547409.91')).toBe(9007199254740991n);
    expect(moneyOf('123456789012345678.995')).toBe(12345678901234567900n);
    expect(moneyOf('99999999999999999999999.99')).toBe(9999999999999999999999999n);
  });

  it('a negative amount stays a figure (rounded away from zero); text that is not a decimal is not known', () => {
    expect([moneyOf('-5'), moneyOf('-0.005'), moneyOf('-0.0049')]).toEqual([-500n, -1n, 0n]);
    for (const text of ['', '.', '-', 'abc', '1,000', '$5', '1e3', '1.2.3', 'N/A']) expect([text, moneyOf(text)]).toEqual([text, NOT_KNOWN]);
  });
});

describe('EB08 → basis points', () => {
  it('a fraction × 10,000, rounded half away from zero', () => {
    expect(['.2', '0.125', '0', '1', '0.20', '0.12345', '0.123449', '0.33335', '0.00005', '0.000049'].map(rateOf)).toEqual([
      2000n,
      1250n,
      0n,
      10000n,
      2000n,
      1235n,
      1234n,
      3334n,
      1n,
      0n,
    ]);
    expect([rateOf('-0.05'), rateOf('-0.00005'), rateOf('12345678.9')]).toEqual([-500n, -1n, 123456789000n]);
  });

  it('text that is not a decimal is not known', () => {
    for (const text of ['', 'abc', '20%', '.', '1/5']) expect([text, rateOf(text)]).toEqual([text, NOT_KNOWN]);
  });
});

describe('the REST answer’s text', () => {
  it('money as "$1,234.50", rates as "12.5%", not known as "N/A"', () => {
    expect([moneyText(moneyOf('1234.5')), moneyText(moneyOf('-5')), moneyText(moneyOf('0')), moneyText(NOT_KNOWN)]).toEqual([
      '$1,234.50',
      '-$5.00',
      '$0.00',
      'N/A',
    ]);
    expect([rateText(rateOf('.2')), rateText(rateOf('0.125')), rateText(rateOf('0')), rateText(rateOf('0.12345')), rateText(NOT_KNOWN)]).toEqual([
      '20%',
      '12.5%',
      '0%',
      '12.35%',
      'N/A',
    ]);
  });
});

describe('remaining = total − year to date, exact before the one rounding', () => {
  it('subtracts the decimals as the payer wrote them, then rounds the result', () => {
    // 100.004 − 50.005 = 49.999 → $50.00. Rounding each first would give $100.00 − $50.01 = $49.99.
    const x12 = response271(['EB*1**30', 'EB*C*IND*30***23*100.004*****Y', 'EB*C*IND*30***24*50.005*****Y']);
    const figures = interpret271Figures(x12);
    const text = interpret271(x12);
    if (!figures.result.ok || !text.result.ok) throw new Error('expected an answer');
    expect(figures.result.value.inNetwork.individual.deductible).toEqual({ total: 10000n, remaining: 5000n });
    expect(text.result.value.inNetwork.individual.deductible).toEqual({ total: '$100.00', remaining: '$50.00' });
  });
});

describe('the numbers go beside the body', () => {
  it('the mock answer hands over the figures it was formatted from', () => {
    const mock = mockEligibility({ ...MOCK_PATIENTS[1]! });
    if (!mock.ok) throw new Error('expected the mock answer');
    expect(mock.body.inNetwork.family.deductible).toEqual({ total: '$6,000.00', remaining: '$4,250.50' });
    expect(mock.figures.inNetwork.family.deductible).toEqual({ total: 600000n, remaining: 425050n });
  });
});
