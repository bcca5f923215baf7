/** The character-level pieces: the code array and the in-place element reads over it. */
import { describe, it, expect } from '@jest/globals';
import { codesAre, codesOf, countIsAt, elementEnd, elementStart, readIsa, sameCodes } from '../../lib/x12/scan.js';

const STAR = 42;

describe('codesOf', () => {
  it('holds every UTF-16 code unit at its offset, BOM and non-Latin-1 included', () => {
    const text = '\uFEFFISA*é–→😀~';
    const codes = codesOf(text);
    for (let i = 0; i < text.length; i++) expect(codes[i]).toBe(text.charCodeAt(i));
  });

  it('grows for a longer reply and still reads it whole', () => {
    const text = `${'NM1*IL*1~'.repeat(2000)}END`; // 18,003 units: past the first scratch size
    const codes = codesOf(text);
    expect(codes.length).toBeGreaterThanOrEqual(text.length);
    expect(String.fromCharCode(...codes.subarray(text.length - 3, text.length))).toBe('END');
    expect(codes[9 * 1234]).toBe('N'.charCodeAt(0));
  });

  it('gives a reply over the scratch cap its own array', () => {
    const text = 'x'.repeat((1 << 20) + 5);
    const big = codesOf(text);
    expect(big.length).toBe(text.length);
    expect(codesOf('ab')).not.toBe(big); // the next call is back on the scratch
  });

  it('is scratch: the next call overwrites it', () => {
    const first = codesOf('AAAA');
    codesOf('BBBB');
    expect(first[0]).toBe('B'.charCodeAt(0));
  });
});

describe('element spans', () => {
  const text = 'GS*HB*A**20250101*1200*9*X*005010X279A1';
  const codes = () => codesOf(text);

  it('finds element n, and -1 past the last separator', () => {
    const c = codes();
    const read = (n: number) => {
      const from = elementStart(c, 0, text.length, STAR, n);
      const to = elementEnd(c, from, text.length, STAR);
      return from < 0 ? null : text.slice(from, to);
    };
    expect(read(1)).toBe('HB');
    expect(read(3)).toBe('');
    expect(read(8)).toBe('005010X279A1');
    expect(read(9)).toBeNull();
    expect(elementEnd(c, -1, text.length, STAR)).toBe(-1);
  });

  it('stays inside the segment it is given', () => {
    const two = 'ST*271~SE*2*0001';
    const c = codesOf(two);
    expect(elementStart(c, 0, 6, STAR, 2)).toBe(-1); // ST has one element; SE's are not its own
  });

  it('compares spans with strings and with each other, absent reading as empty', () => {
    const c = codesOf('SE*0001*0001*');
    expect(codesAre(c, 3, 7, '0001')).toBe(true);
    expect(codesAre(c, 3, 7, '001')).toBe(false);
    expect(codesAre(c, -1, -1, '')).toBe(true);
    expect(sameCodes(c, 3, 7, 8, 12)).toBe(true);
    expect(sameCodes(c, 3, 7, 8, 11)).toBe(false);
    expect(sameCodes(c, -1, -1, 13, 13)).toBe(true);
  });

  it('accepts only the canonical decimal of a count', () => {
    const check = (value: string, count: number) => countIsAt(codesOf(value), 0, value.length, count);
    expect(check('12', 12)).toBe(true);
    expect(check('0', 0)).toBe(true);
    expect(check('012', 12)).toBe(false);
    expect(check('+12', 12)).toBe(false);
    expect(check('1 2', 12)).toBe(false);
    expect(check('', 0)).toBe(false);
    expect(countIsAt(codesOf('x'), -1, -1, 0)).toBe(false);
  });
});

describe('readIsa', () => {
  const isa = 'ISA*00*          *00*          *ZZ*SUBMITTER      *ZZ*RECEIVER       *250101*1200*^*00501*000000001*0*P*:~';

  it('finds the 16 separators and the delimiters after them', () => {
    const warnings: string[] = [];
    const header = readIsa(isa, codesOf(isa), 0, warnings);
    if (typeof header === 'string') throw new Error(header);
    expect(header.cuts).toHaveLength(16);
    expect(header.delimiters).toEqual({ element: '*', component: ':', repetition: '^', segment: '~' });
    expect(header.end).toBe(isa.length);
    expect(warnings).toEqual([]);
  });

  it('reports a header cut short', () => {
    const cut = isa.slice(0, 60);
    expect(readIsa(cut, codesOf(cut), 0, [])).toBe('interchange header truncated');
    expect(readIsa('ISA', codesOf('ISA'), 0, [])).toBe('interchange header truncated');
  });
});
