/** TextSegment's in-place reads agree with the element strings they avoid creating. */
import { describe, it, expect } from '@jest/globals';
import { element, elementIs, TextSegment, values } from './segment.js';
import { tokenize } from './tokenizer.js';

const ISA = 'ISA*00*          *00*          *ZZ*TESTPAYER      *ZZ*TESTSUBMIT     *250101*1200*^*00501*000000042*0*P*:~';

function segments(body: string): TextSegment[] {
  const r = tokenize(`${ISA}${body}`);
  if (!r.ok) throw new Error(r.error.message);
  return r.segments as TextSegment[];
}

describe('TextSegment in-place reads', () => {
  const [, eb] = segments('EB*B**1^33:30^^98*HM***10.00~');

  it('field, is and elements agree', () => {
    for (let n = 0; n < 12; n++) {
      const expected = eb!.elements[n] ?? '';
      expect(element(eb!, n)).toBe(expected);
      expect(elementIs(eb!, n, expected)).toBe(true);
      expect(elementIs(eb!, n, `${expected}X`)).toBe(false);
    }
    expect(values(eb!, 3)).toEqual([['1'], ['33', '30'], [''], ['98']]);
  });
});
