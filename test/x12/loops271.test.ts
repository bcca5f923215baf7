import { describe, it, expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { readEnvelope } from '../../lib/x12/envelope.js';
import { grammarOf, LOOPS_271, readLoops271, type Grammar, type LoopKind, type LoopRule, type Transaction271 } from '../../lib/x12/loops271.js';
import { element, SEGMENT, type Segment } from '../../lib/x12/segment.js';
import { tokenize } from '../../lib/x12/tokenizer.js';
import { envelope } from '../fixtures/x12/build.js';

function loops(text: string, grammar?: Grammar) {
  const tokens = tokenize(text);
  if (!tokens.ok) throw new Error(tokens.error.message);
  return readLoops271(readEnvelope(tokens.segments).transactions[0]!.body, grammar);
}

/** LOOPS_271 with one rule changed (or, with `undefined`, removed). */
function changed(loop: LoopKind, change: ((rule: LoopRule) => LoopRule) | undefined): Grammar {
  return grammarOf(LOOPS_271.flatMap((rule) => (rule.loop !== loop ? [rule] : change ? [change(rule)] : [])));
}

/** Every loop of a transaction with its segments' ids, "2000C: HL TRN", in reading order. */
function outline(doc: Transaction271): string[] {
  const line = (loop: { name: string; segments: readonly Segment[] }) => `${loop.name}: ${loop.segments.map((s) => s.id).join(' ')}`;
  return doc.levels.flatMap((level) => [
    line(level),
    ...level.names.map(line),
    ...level.benefits.flatMap((benefit) => [line(benefit), ...benefit.related.map(line)]),
  ]);
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
});

describe('LOOPS_271 drives the reader', () => {
  /** Payer, then a subscriber whose 2110 has a 2120 between LS and LE, with segments of each loop's keeps around. */
  const reply = envelope([
    'HL*1**20*1',
    'NM1*PR*2*PAYER',
    'HL*2*1*22*0',
    'NM1*IL*1*DOE',
    'TRN*2*1',
    'DMG*D8*19800101',
    'EB*R**30',
    'DTP*291*D8*20250101',
    'LS*2120',
    'NM1*PRP*2*OTHER',
    'REF*IG*M1',
    'AAA*N**72*C',
    'N3*STREET',
    'LE*2120',
    'MSG*AFTER',
  ]);

  it('with LOOPS_271: HL, NM1 and EB open the loops it names, each segment goes to the innermost open loop that keeps it', () => {
    const doc = loops(reply);
    expect(outline(doc)).toEqual([
      '2000A: HL',
      '2100A: NM1',
      // TRN is a 2000 segment: it leaves the open 2100 for its level.
      '2000C: HL TRN',
      '2100C: NM1 DMG',
      // The 2120 keeps no AAA, LS or LE: they go to its 2110.
      '2110C: EB DTP LS AAA LE MSG',
      '2120C: NM1 REF N3',
    ]);
    expect(doc.aaa.map((a) => a.loop)).toEqual(['2110C']);
    expect(doc.warnings).toEqual([]);
  });

  it('without the 2120 rule an NM1 after an EB opens a 2100, which closes the 2110', () => {
    const doc = loops(reply, changed('2120', undefined));
    expect(outline(doc).slice(2)).toEqual(['2000C: HL TRN', '2100C: NM1 DMG', '2100C: NM1 REF AAA N3 LE MSG', '2110C: EB DTP LS']);
    expect(doc.warnings).toEqual([]);
  });

  it('a 2120 opened inside the 2100 instead of the 2110 is no longer an entity of the benefit', () => {
    const doc = loops(
      reply,
      changed('2120', (rule) => ({ ...rule, inside: '2100' })),
    );
    expect(doc.levels[1]!.benefits[0]!.related).toEqual([]);
    expect(doc.levels[1]!.names.map((n) => n.name)).toEqual(['2100C', '2100C']);
  });

  it('what a loop keeps is what the table lists: an AAA the 2110 did not keep goes to the 2000, one the 2120 keeps stays in it', () => {
    const withoutAaa = changed('2110', (rule) => ({ ...rule, keeps: rule.keeps.filter((id) => id !== SEGMENT.rejection) }));
    expect(loops(reply, withoutAaa).aaa.map((a) => a.loop)).toEqual(['2000C']);
    const entityAaa = changed('2120', (rule) => ({ ...rule, keeps: [...rule.keeps, SEGMENT.rejection] }));
    expect(loops(reply, entityAaa).aaa.map((a) => a.loop)).toEqual(['2120C']);
    const trnStays = changed('2000', (rule) => ({ ...rule, keeps: rule.keeps.filter((id) => id !== SEGMENT.trace) }));
    expect(outline(loops(reply, trnStays)).slice(2, 4)).toEqual(['2000C: HL', '2100C: NM1 TRN DMG']);
  });

  it('the 2120 stands between the pair the table names: without it, LS and LE are plain 2110 segments', () => {
    const noPair = changed('2120', ({ between: _, ...rule }) => rule);
    const doc = loops(envelope(['HL*1**22*0', 'EB*R**30', 'NM1*PRP*2*OTHER', 'N3*STREET', 'LE*2120']), noPair);
    expect(outline(doc)).toEqual(['2000C: HL', '2110C: EB LE', '2120C: NM1 N3']);
    expect(doc.warnings).toEqual([]);
    // With the pair: the NM1 outside LS/LE holds only itself, and the LE has no LS.
    const paired = loops(envelope(['HL*1**22*0', 'EB*R**30', 'NM1*PRP*2*OTHER', 'N3*STREET', 'LE*2120']));
    expect(outline(paired)).toEqual(['2000C: HL', '2110C: EB N3 LE', '2120C: NM1']);
    expect(paired.warnings).toEqual(['segment 6: NM1 after EB outside LS/LE', 'segment 8: LE without LS']);
  });

  it('for every chain of open loops of the table, a segment one of them keeps lands in the innermost that keeps it', () => {
    const openers: Record<LoopKind, string[]> = { '2000': ['HL*1**22*0'], '2100': ['NM1*IL*1*A'], '2110': ['EB*1**30'], '2120': ['LS*2120', 'NM1*P3*1*B'] };
    const chain = (rule: LoopRule): LoopRule[] => {
      const parent = LOOPS_271.find((r) => r.loop === rule.inside);
      return parent ? [...chain(parent), rule] : [rule];
    };
    const holderOf = (doc: Transaction271): string | undefined => {
      const all = doc.levels.flatMap((level) => [level, ...level.names, ...level.benefits.flatMap((benefit) => [benefit, ...benefit.related])]);
      return all.find((loop) => loop.segments.some((segment) => element(segment, 1) === 'KEPT'))?.name;
    };
    let checked = 0;
    for (const innermost of LOOPS_271) {
      const open = chain(innermost);
      for (const id of new Set(open.flatMap((rule) => rule.keeps))) {
        const keeper = open.findLast((rule) => rule.keeps.includes(id))!;
        const doc = loops(envelope([...open.flatMap((rule) => openers[rule.loop]), `${id}*KEPT`]));
        expect([innermost.loop, id, holderOf(doc)]).toEqual([innermost.loop, id, `${keeper.loop}C`]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('a table whose loop opens inside a loop no earlier rule opens is refused', () => {
    expect(() => grammarOf(LOOPS_271.filter((rule) => rule.loop !== '2110'))).toThrow('loop 2120 opens inside 2110, which no earlier rule opens');
  });
});
