/**
 * The fast path (read271 behind interpret271) against the layered reference reader
 * (test/support/x12-reference: tokenize → readEnvelope → readLoops271, turned into the same reading
 * by read.ts), both answered by interpretRead with one question that exercises every rule. Inputs are seeded random damage of the fixtures (and of the shared
 * corpus when present): dropped, repeated and foreign segments, odd HL codes, cut text.
 */
import { describe, it, expect } from '@jest/globals';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { interpret271, interpretRead, type Interpretation } from '../../lib/eligibility/interpret.js';
import { read271 } from '../../lib/eligibility/read271.js';
import type { EligibilityQuestion } from '../../lib/eligibility/types.js';
import { referenceRead } from '../support/x12-reference/read.js';
import { canonicalJson, corpusCases, fixtureCases } from '../x12/golden-cases.js';

/** The question both paths answer: a date, requested services and procedures, so every rule runs. */
const QUESTION: EligibilityQuestion = { memberId: 'W000000001', dateOfCoverage: '20250315', serviceTypeCodes: ['30', '98', 'AL'], procedureCodes: ['99213'] };

function reference(x12: string): Interpretation {
  return interpretRead(referenceRead(x12), QUESTION);
}

/** mulberry32: small seeded generator so failures reproduce. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FOREIGN = [
  'HL*9*1*22*1', 'HL*9**20*0', 'HL*3*2*23*0', 'HL*1*7*2Q*1', 'HL**1*21*1', 'LS*2120', 'LE*2120', 'NM1*PR*2*OTHER PAYER',
  'NM1*P3*1*DOC', 'EB*C*IND*30***23*100*****Y', 'EB*B*FAM*98^1*MB***15*****N', 'EB*A**30*MA***0.25****W', 'EB*1', 'EB*6**30',
  'AAA*N**72*C', 'AAA*Y**42*R', 'AAA*N**79*N', 'ST*271*0002*005010X279A1', 'ST*999*0003', 'SE*4*0002', 'GE*1*9', 'GS*HB*A*B*20250101*1200*9*X*005010X279A1',
  'IEA*1*000000001', 'REF*SY*1', 'DTP*291*D8*20250101', 'MSG*TEXT', 'x y', 'TOOLONG*1', 'ISA', 'EB*constructor*IND*30***23*5', 'HL*5*1*toString*0',
  // Segments the r2 answer reads: 2100 REF/DTP/DMG/INS, 2110 REF*IG/DTP/MSG, 2120 payer NM1, R/F rows, fillers, sections.
  'REF*IG*X123', 'REF*6P*GRP1*GROUP NAME', 'REF*18*PLN', 'DTP*346*D8*20250101', 'DTP*347*D8*20241231', 'DTP*291*RD8*20250101-20251231',
  'DTP*356*D8*20200101', 'DMG*D8*19700101', 'INS*N*19', 'EB*R**30*HN', 'NM1*PRP*2*OTHER PLAN*****PI*99999', 'NM1*IL*1*DOE*JANE****MI*W000000001',
  'EB*B*IND*30***27*99999.99*****Y', 'EB*1**30**VISION PLAN', 'EB*F*IND*AL***27**VS*2*Y**Y', 'MSG*PRIOR AUTH', 'EB*C*IND*96*MB**23*257',
  'EB*B*IND*98***27*40*****Y*HC:99213', 'EB*G*FAM*30***29*1000.25*****Y',
];

function mutate(text: string, rnd: () => number): string {
  const term = text.includes('~') ? '~' : text.includes('\r') ? '\r' : '~';
  const parts = text.split(term);
  const edits = 1 + Math.floor(rnd() * 4);
  for (let e = 0; e < edits && parts.length > 1; e++) {
    const i = 1 + Math.floor(rnd() * (parts.length - 1));
    const kind = Math.floor(rnd() * 6);
    if (kind === 0) parts.splice(i, 1);
    else if (kind === 1) parts.splice(i, 0, parts[i]!);
    else if (kind === 2) parts.splice(i, 0, `\n${FOREIGN[Math.floor(rnd() * FOREIGN.length)]!}`);
    else if (kind === 3) parts.splice(i, 0, parts.splice(1 + Math.floor(rnd() * (parts.length - 1)), 1)[0]!);
    else if (kind === 4) parts[i] = parts[i]!.slice(0, Math.floor(rnd() * parts[i]!.length));
    else parts[i] = parts[i]!.replace(/\*2[0-3]\*/, `*2${Math.floor(rnd() * 5)}*`);
  }
  const out = parts.join(term);
  return rnd() < 0.1 ? out.slice(0, Math.floor(rnd() * out.length)) : out;
}

function mismatches(sources: { name: string; text: string }[], rounds: number, seed: number): string[] {
  const rnd = random(seed);
  const bad: string[] = [];
  for (const source of sources) {
    for (let r = 0; r < rounds; r++) {
      const text = r === 0 ? source.text : mutate(source.text, rnd);
      let fast: string;
      let slow: string;
      try {
        fast = canonicalJson(interpret271(text, QUESTION));
      } catch (e) {
        fast = `threw ${String(e)}`;
      }
      try {
        slow = canonicalJson(reference(text));
      } catch (e) {
        slow = `threw ${String(e)}`;
      }
      // The reference threw on EB01 "constructor" (an Object.prototype lookup); the fast path must not throw.
      if (fast.startsWith('threw')) bad.push(`${source.name} round ${r}: ${fast}`);
      else if (fast !== slow && !slow.startsWith('threw')) bad.push(`${source.name} round ${r}`);
    }
  }
  return bad;
}

const corpus = fileURLToPath(new URL('../../../shared/corpus/x12/', import.meta.url));

describe('read271 fast path equals the layered reader', () => {
  it('on seeded damage of the project fixtures', () => {
    const sources = fixtureCases().filter((c) => !c.name.includes('#'));
    expect(mismatches(sources, 150, 271)).toEqual([]);
  });
  (existsSync(`${corpus}manifest.json`) ? it : it.skip)('on seeded damage of the shared corpus', () => {
    const sources = corpusCases(corpus).filter((c) => !c.name.includes('#'));
    expect(mismatches(sources, 40, 999)).toEqual([]);
  });
  it('reports what interpret271 needs for the fixture 271', () => {
    const r = read271(fixtureCases()[0]!.text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.responses).toBe(1);
    const doc = r.docs[0]!;
    expect(doc.hasSubscriber).toBe(true);
    expect(doc.payerName).toBe('FIXTURE HEALTH PLAN');
    expect(doc.patientBenefits.length).toBeGreaterThan(0);
    expect(doc.patientBenefits.map((b) => b.order)).toEqual([...doc.patientBenefits.keys()].map((k) => doc.patientBenefits[0]!.order + k));
  });
  it('does not throw on an EB01 that names an Object.prototype member', () => {
    const text = fixtureCases()[0]!.text.replace('EB*1*', 'EB*constructor*');
    expect(() => interpret271(text)).not.toThrow();
  });
});
