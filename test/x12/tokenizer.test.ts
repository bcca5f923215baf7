import { describe, it, expect } from '@jest/globals';
import { tokenize } from '../../lib/x12/tokenizer.js';
import { element, repetitions } from '../../lib/x12/segment.js';

const ISA5010 = 'ISA*00*          *00*          *ZZ*SENDER         *ZZ*RECEIVER       *250101*1200*^*00501*000000001*0*P*:~';
const ISA4010 = 'ISA*00*          *00*          *ZZ*SENDER         *ZZ*RECEIVER       *250101*1200*U*00401*000000001*0*P*>~';

function ok(text: string) {
  const result = tokenize(text);
  if (!result.ok) throw new Error(`tokenize failed: ${result.error.message}`);
  return result;
}

describe('tokenize: delimiters', () => {
  it('reads element, component, repetition and segment delimiters from the ISA', () => {
    const r = ok(`${ISA5010}GS*HB*A*B*20250101*1200*1*X*005010X279A1~`);
    expect(r.segments[0]!.delimiters).toEqual({ element: '*', component: ':', repetition: '^', segment: '~' });
    expect(r.segments.map((s) => s.id)).toEqual(['ISA', 'GS']);
  });

  it('finds delimiters by counting separators, so a non-fixed-width ISA still works', () => {
    const isa = 'ISA*00*  *00*  *ZZ*S*ZZ*R*250101*1200*^*00501*000000001*0*P*:~';
    const r = ok(`${isa}ST*271*0001~`);
    expect(r.segments[0]!.delimiters.component).toBe(':');
    expect(r.segments[0]!.delimiters.segment).toBe('~');
    expect(r.segments[1]!.elements).toEqual(['ST', '271', '0001']);
    expect(r.warnings.some((w) => w.includes('not fixed-width'))).toBe(true);
  });

  it('accepts unusual delimiters (| for elements, ? for segments)', () => {
    const isa = ISA5010.replaceAll('*', '|').replace(/~$/, '?');
    const r = ok(`${isa}ST|271|0001?EB|1||30^1?`);
    expect(r.segments[0]!.delimiters).toEqual({ element: '|', component: ':', repetition: '^', segment: '?' });
    expect(repetitions(r.segments[2]!, 3)).toEqual(['30', '1']);
  });

  it('has no repetition separator when ISA11 is alphanumeric (4010 "U")', () => {
    const r = ok(`${ISA4010}EB*1**30^1~`);
    expect(r.segments[0]!.delimiters.repetition).toBeNull();
    expect(element(r.segments[1]!, 3)).toBe('30^1');
    expect(repetitions(r.segments[1]!, 3)).toEqual(['30^1']);
  });

  it('treats ISA11 equal to ISA16 as a component separator and warns', () => {
    const isa = ISA5010.replace('*P*:~', '*P*^~');
    const r = ok(`${isa}EB*1**1^33~`);
    expect(r.segments[0]!.delimiters.repetition).toBeNull();
    expect(repetitions(r.segments[1]!, 3)).toEqual(['1^33']);
    expect(r.segments[1]!.delimiters.component).toBe('^');
    expect(r.warnings.some((w) => w.includes('ISA11'))).toBe(true);
  });

  it('uses a CR segment terminator and skips the LF that follows', () => {
    const isa = ISA4010.replace('>~', ':\r\n');
    const r = ok(`${isa}  GS*HB*A*B \r\n  ST*271*0001\r\n`);
    expect(r.segments[0]!.delimiters.segment).toBe('\r');
    expect(r.segments.map((s) => s.elements)).toEqual([expect.any(Array), ['GS', 'HB', 'A', 'B'], ['ST', '271', '0001']]);
  });
});

describe('tokenize: layout', () => {
  it('tolerates a BOM, CR/LF and indentation between segments', () => {
    const r = ok(`\uFEFF${ISA5010}\r\n  GS*HB*A~\r\n\t\tST*271*0001~\r\n`);
    expect(r.segments.map((s) => s.id)).toEqual(['ISA', 'GS', 'ST']);
    expect(r.segments[0]!.offset).toBe(1);
    expect(r.warnings).toEqual([]);
  });

  it('keeps leading zeros and values as strings', () => {
    const r = ok(`${ISA5010}NM1*IL*1*DOE*JOHN****MI*00012345~EB*C*IND*30***23*0500.00~`);
    expect(element(r.segments[1]!, 9)).toBe('00012345');
    expect(element(r.segments[2]!, 7)).toBe('0500.00');
    expect(r.segments[0]!.elements[13]).toBe('000000001');
  });

  it('splits repetitions and components per element', () => {
    const r = ok(`${ISA5010}EB*1**1^33^35*****0.2*****HC:99213:26~`);
    const eb = r.segments[1]!;
    expect(repetitions(eb, 3)).toEqual(['1', '33', '35']);
    expect(element(eb, 13).split(eb.delimiters.component)).toEqual(['HC', '99213', '26']);
    expect(element(eb, 13)).toBe('HC:99213:26');
    expect(repetitions(eb, 8)).toEqual(['0.2']);
    expect(element(eb, 2)).toBe('');
  });

  it('keeps the ISA elements whole even though they hold the separators', () => {
    const r = ok(`${ISA5010}`);
    expect(r.segments[0]!.elements).toHaveLength(17);
    expect(r.segments[0]!.elements[11]).toBe('^');
    expect(r.segments[0]!.elements[16]).toBe(':');
  });

  it('records 1-based positions and character offsets', () => {
    const text = `${ISA5010}\nGS*HB~\nST*271~`;
    const r = ok(text);
    expect(r.segments.map((s) => s.position)).toEqual([1, 2, 3]);
    expect(r.segments[2]!.offset).toBe(text.indexOf('ST*271'));
  });

  it('honours a second ISA with different delimiters', () => {
    const second = ISA5010.replaceAll('*', '|').replace('|:~', '|:!');
    const r = ok(`${ISA5010}ST*271~${second}ST|270!`);
    expect(r.segments.map((s) => s.elements.slice(0, 2))).toEqual([
      ['ISA', '00'],
      ['ST', '271'],
      ['ISA', '00'],
      ['ST', '270'],
    ]);
  });
});

describe('tokenize: malformed input never throws', () => {
  it('fails with an offset when there is no ISA', () => {
    const r = tokenize('hello world');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toEqual({ message: 'no ISA segment found', offset: 0 });
  });

  it('fails on a truncated ISA', () => {
    const r = tokenize('ISA*00*          *00*');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/truncated/);
  });

  it('fails on an alphanumeric element separator', () => {
    expect(tokenize('ISAX00X').ok).toBe(false);
  });

  it('warns about text before the ISA and a missing final terminator, with offsets', () => {
    const r = ok(`junk${ISA5010}ST*271*0001`);
    expect(r.warnings[0]).toBe('offset 0: 4 characters before ISA ignored');
    expect(r.warnings[1]).toMatch(/^segment 2 \(offset \d+\): no segment terminator/);
    expect(r.segments[1]!.elements).toEqual(['ST', '271', '0001']);
  });

  it('warns about invalid segment ids without echoing the segment text', () => {
    const r = ok(`${ISA5010}secret name*x~`);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).not.toContain('secret');
  });

  it('survives arbitrary garbage without throwing', () => {
    const samples = ['', 'ISA', 'ISA*', `${ISA5010}~~~~`, `${ISA5010}*****`, '\uFEFF', `${ISA5010.slice(0, 105)}`];
    for (const s of samples) expect(() => tokenize(s)).not.toThrow();
  });
});
