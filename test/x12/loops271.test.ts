import { describe, it, expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { readEnvelope } from '../../lib/x12/envelope.js';
import { LOOPS_271, readLoops271 } from '../../lib/x12/loops271.js';
import { element } from '../../lib/x12/segment.js';
import { tokenize } from '../../lib/x12/tokenizer.js';
import { envelope } from '../fixtures/x12/build.js';

function loops(text: string) {
  const tokens = tokenize(text);
  if (!tokens.ok) throw new Error(tokens.error.message);
  return readLoops271(readEnvelope(tokens.segments).transactions[0]!.body);
}

describe('readLoops271', () => {
  it('builds the HL tree of the subscriber fixture', () => {
    const doc = loops(readFileSync(new URL('../fixtures/x12/subscriber-benefits.271', import.meta.url), 'utf8'));
    expect(doc.warnings).toEqual([]);
    expect(doc.levels.map((l) => l.name)).toEqual(['2000A', '2000B', '2000C']);
    expect(doc.levels.map((l) => [l.parent?.name, l.children])).toEqual([
      [undefined, 1],
      ['2000A', 1],
      ['2000B', 0],
    ]);
    const subscriber = doc.levels[2]!;
    expect(subscriber.segments.map((s) => s.id)).toEqual(['HL', 'TRN']);
    expect(subscriber.names[0]!.name).toBe('2100C');
    expect(subscriber.names[0]!.segments.map((s) => s.id)).toEqual(['NM1', 'N3', 'N4', 'DMG', 'DTP']);
    expect(subscriber.benefits.map((b) => b.name)).toEqual(Array(15).fill('2110C'));
    expect(subscriber.benefits.map((b) => b.order)).toEqual([...Array(15).keys()]);
    const withMsg = subscriber.benefits[13]!;
    expect(withMsg.segments.map((s) => s.id)).toEqual(['EB', 'MSG']);
    const pcp = subscriber.benefits[14]!;
    expect(pcp.related).toHaveLength(1);
    expect(pcp.related[0]!.name).toBe('2120C');
    expect(pcp.related[0]!.segments.map((s) => s.id)).toEqual(['NM1', 'N3']);
    expect(pcp.segments.map((s) => s.id)).toEqual(['EB', 'LS', 'LE']);
  });

  it('follows HL03, not NM101 (NM1*IL under a 23 level is 2100D)', () => {
    const doc = loops(
      envelope(['HL*1**20*1', 'NM1*PR*2*P', 'HL*2*1*21*1', 'NM1*1P*2*C', 'HL*3*2*22*1', 'NM1*IL*1*A*B', 'HL*4*3*23*0', 'NM1*IL*1*C*D', 'EB*1**30']),
    );
    const dependent = doc.levels[3]!;
    expect(dependent.name).toBe('2000D');
    expect(dependent.names[0]!.name).toBe('2100D');
    expect(dependent.benefits[0]!.name).toBe('2110D');
    expect(dependent.parent?.name).toBe('2000C');
  });

  it('puts NM1 inside LS/LE into 2120, not a new 2100', () => {
    const doc = loops(
      envelope([
        'HL*1**20*1',
        'NM1*PR*2*P',
        'HL*2*1*22*0',
        'NM1*IL*1*A',
        'EB*R**30',
        'REF*18*X',
        'LS*2120',
        'NM1*PR*2*OTHER',
        'N3*X',
        'NM1*P3*1*Y',
        'LE*2120',
        'EB*1**30',
      ]),
    );
    const sub = doc.levels[1]!;
    expect(sub.names).toHaveLength(1);
    expect(sub.benefits).toHaveLength(2);
    expect(sub.benefits[0]!.related.map((r) => [r.name, element(r.segments[0]!, 1), r.segments.length])).toEqual([
      ['2120C', 'PR', 2],
      ['2120C', 'P3', 1],
    ]);
    expect(sub.benefits[0]!.segments.map((s) => s.id)).toEqual(['EB', 'REF', 'LS', 'LE']);
  });

  it('records every AAA with its loop in document order', () => {
    const doc = loops(
      envelope([
        'HL*1**20*1',
        'AAA*Y**42*R',
        'NM1*PR*2*P',
        'AAA*N**79*C',
        'HL*2*1*21*1',
        'NM1*1P*2*C',
        'AAA*N**43*C',
        'HL*3*2*22*0',
        'NM1*IL*1*A',
        'AAA*Y**72*C',
        'EB*1**30',
        'AAA*Y**70*C',
      ]),
    );
    expect(doc.aaa.map((a) => [element(a.segment, 3), a.loop])).toEqual([
      ['42', '2000A'],
      ['79', '2100A'],
      ['43', '2100B'],
      ['72', '2100C'],
      ['70', '2110C'],
    ]);
  });

  it('warns (never throws) on structural defects', () => {
    const doc = loops(envelope(['EB*1', 'HL*1**20*1', 'HL*2*9*99*1', 'LE*2120', 'HL*3*1*22*0', 'EB*1**30', 'LS*2120', 'NM1*P3*1*X']));
    expect(doc.warnings).toEqual([
      'segment 4: EB before the first HL',
      'segment 6: HL03 is not a 271 level code',
      'segment 6: HL02 names no earlier HL',
      'segment 7: LE without LS',
      'transaction set: LS without LE',
      'segment 6: HL04 announces children but none follow',
    ]);
  });

  it('is read by the grammar table: each loop opens on the segment the table names', () => {
    expect(LOOPS_271.map((r) => [r.loop, r.opensOn, r.inside])).toEqual([
      ['2000', 'HL', 'transaction'],
      ['2100', 'NM1', '2000'],
      ['2110', 'EB', '2000'],
      ['2120', 'NM1', '2110'],
    ]);
  });
});
