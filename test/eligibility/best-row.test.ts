/** The named criteria of BEST_ROW: each decides between two rows that tie on every criterion before it. */
import { describe, it, expect } from '@jest/globals';
import { bestRow, type Slot } from '../../lib/eligibility/summary.js';
import { ebRow } from '../fixtures/x12/build.js';

const slot = (over: Partial<Slot> = {}): Slot => ({
  field: 'copay',
  network: 'in',
  level: 'individual',
  time: { kind: 'any' },
  rankService: true,
  planCode: '30',
  ...over,
});
const winner = (ebs: string[], over: Partial<Slot> = {}) =>
  bestRow(
    ebs.map((eb, order) => ebRow(eb, undefined, order)),
    slot(over),
  )?.order;

describe('BEST_ROW', () => {
  it('compares service, time, network, level, then document order', () => {
    // Each pair: the first row wins on the earlier criterion, the second on the later one; the earlier decides.
    const total = { field: 'deductible', time: { kind: 'total' } } as const;
    expect(winner(['EB*C*IND*30***25*10', 'EB*C*IND****23*10'], total)).toBe(0); // service (EB03) before time period (EB06)
    expect(winner(['EB*C*IND*30***23*10*****W', 'EB*C*IND*30***22*10*****Y'], total)).toBe(0); // time period before network (EB12)
    expect(winner(['EB*B*EMP*30***27*10*****Y', 'EB*B*IND*30***27*10*****W'])).toBe(0); // network before level (EB02)
    expect(winner(['EB*B*EMP*30***27*10', 'EB*B*IND*30***27*10'])).toBe(1); // level before document order
  });

  it('service: 30, 98, none, 1 for copay; 30, none, 1 for deductible; 96 as 30 on Part B only', () => {
    expect(winner(['EB*B*IND*1***27*10', 'EB*B*IND****27*10', 'EB*B*IND*98***27*10'])).toBe(2);
    expect(winner(['EB*B*IND*1***27*10', 'EB*B*IND****27*10'])).toBe(1);
    expect(winner(['EB*C*IND*98***23*10'], { field: 'deductible', time: { kind: 'total' } })).toBeUndefined();
    expect(winner(['EB*C*IND*1***23*10', 'EB*C*IND*96*MB**23*257'], { field: 'deductible', time: { kind: 'total' } })).toBe(1);
    expect(winner(['EB*C*IND*1***23*10', 'EB*C*IND*96*MA**23*257'], { field: 'deductible', time: { kind: 'total' } })).toBe(0);
    expect(winner(['EB*B*IND*33***27*10', 'EB*B*IND*1***27*10'], { rankService: false })).toBe(0);
  });

  it('time: totals prefer 23, 22, 21, 25, none; remaining asks for one code', () => {
    const total = { field: 'deductible', time: { kind: 'total' } } as const;
    expect(winner(['EB*C*IND*30****10', 'EB*C*IND*30***25*10', 'EB*C*IND*30***22*10'], total)).toBe(2);
    expect(winner(['EB*C*IND*30***29*10', 'EB*C*IND*30***023*10'], total)).toBeUndefined();
    expect(winner(['EB*C*IND*30***23*10', 'EB*C*IND*30***29*10'], { field: 'deductible', time: { kind: 'exactly', code: '29' } })).toBe(1);
  });

  it('network: Y (in) or N (out) before W, U and none; other codes never fit', () => {
    expect(winner(['EB*B*IND*30***27*10*****W', 'EB*B*IND*30***27*10*****Y'])).toBe(1);
    expect(winner(['EB*B*IND*30***27*10*****Y', 'EB*B*IND*30***27*10'], { network: 'out' })).toBe(1);
    expect(winner(['EB*B*IND*30***27*10*****YY', 'EB*B*IND*30***27*10*****constructor'])).toBeUndefined();
  });

  it('level: IND before EMP before none; FAM, or none for cost shares only, for family', () => {
    expect(winner(['EB*B**30***27*10', 'EB*B*EMP*30***27*10', 'EB*B*IND*30***27*10'])).toBe(2);
    expect(winner(['EB*B**30***27*10', 'EB*B*FAM*30***27*10'], { level: 'family' })).toBe(1);
    expect(winner(['EB*B**30***27*10'], { level: 'family' })).toBe(0);
    expect(winner(['EB*C**30***23*10'], { level: 'family', field: 'deductible', time: { kind: 'total' } })).toBeUndefined();
    expect(winner(['EB*B*SPO*30***27*10'])).toBeUndefined();
  });

  it('document order breaks the last tie', () => {
    expect(winner(['EB*B*IND*30***27*10', 'EB*B*IND*30***27*20'])).toBe(0);
  });
});
