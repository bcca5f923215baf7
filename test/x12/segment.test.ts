/** Element and repetition reads of a tokenized segment. */
import { describe, it, expect } from '@jest/globals';
import { element, repetitions } from '../../lib/x12/segment.js';
import { tokenize } from '../../lib/x12/tokenizer.js';

const ISA = 'ISA*00*          *00*          *ZZ*TESTPAYER      *ZZ*TESTSUBMIT     *250101*1200*^*00501*000000042*0*P*:~';
const ISA_4010 = ISA.replace('*^*00501*', '*U*00401*');

function second(text: string) {
  const r = tokenize(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.segments[1]!;
}

describe('segment reads', () => {
  it('element n is the raw text between separators, absent elements are empty', () => {
    const eb = second(`${ISA}EB*B**1^33:30^^98*HM***10.00~`);
    expect(element(eb, 0)).toBe('EB');
    expect(element(eb, 2)).toBe('');
    expect(element(eb, 7)).toBe('10.00');
    expect(element(eb, 12)).toBe('');
  });

  it('repetitions split on ISA11, components stay whole', () => {
    const eb = second(`${ISA}EB*B**1^33:30^^98~`);
    expect(repetitions(eb, 3)).toEqual(['1', '33:30', '', '98']);
  });

  it('a 4010 interchange has no repetition separator', () => {
    const eb = second(`${ISA_4010}EB*B**1^33~`);
    expect(repetitions(eb, 3)).toEqual(['1^33']);
  });
});
