/** TextSegment's in-place reads agree with the element strings they avoid creating. */
import { describe, it, expect } from '@jest/globals';
import { element, elementIs, TextSegment, values } from '../../lib/x12/segment.js';
import { tokenize } from '../../lib/x12/tokenizer.js';

const ISA = 'ISA*00*          *00*          *ZZ*TESTPAYER      *ZZ*TESTSUBMIT     *250101*1200*^*00501*000000042*0*P*:~';

function segments(body: string): TextSegment[] {
  const r = tokenize(`${ISA}${body}`);
  if (!r.ok) throw new Error(r.error.message);
  return r.segments as TextSegment[];
}

describe('TextSegment in-place reads', () => {
  const [, eb, se, st, empty] = segments('EB*B**1^33:30^^98*HM***10.00~SE*0012*0001~ST*271*0001~SE~');

  it('field, is and elements agree', () => {
    for (let n = 0; n < 12; n++) {
      const expected = eb!.elements[n] ?? '';
      expect(element(eb!, n)).toBe(expected);
      expect(elementIs(eb!, n, expected)).toBe(true);
      expect(elementIs(eb!, n, `${expected}X`)).toBe(false);
    }
    expect(values(eb!, 3)).toEqual([['1'], ['33', '30'], [''], ['98']]);
  });

  it('counts must be canonical decimals', () => {
    expect(se!.countIs(1, 12)).toBe(false); // "0012" is not String(12)
    expect(st!.countIs(1, 271)).toBe(true);
    expect(empty!.countIs(1, 0)).toBe(false);
  });

  it('compares elements of two segments in place', () => {
    expect(se!.sameField(2, st!, 2)).toBe(true);
    expect(se!.sameField(1, st!, 1)).toBe(false);
    expect(empty!.sameField(5, st!, 9)).toBe(true); // both absent
  });
});
