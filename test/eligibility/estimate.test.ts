/**
 * What the patient owes (docs/eligibility.md#estimate): worked examples computed by hand (the
 * arithmetic is in the comments), property tests over seeded random plans, mock mode, the codes the
 * 270 asks and the request rules.
 */
import { fixedClock } from '../../lib/config/clock.js';
import { describe, it, expect } from '@jest/globals';
import { codesAsked, estimateOf, type EstimateSources } from '../../lib/eligibility/estimate.js';
import { basisPoints, cents, NOT_KNOWN, type Block, type SummaryFigures } from '../../lib/eligibility/figures.js';
import { interpret271Figures } from '../../lib/eligibility/interpret.js';
import { mockEligibility } from '../../lib/eligibility/mock.js';
import { MOCK_PATIENTS } from '../../lib/mock/patients.js';
import type { EligibilityQuestion } from '../../lib/eligibility/types.js';
import { validateBody } from '../../lib/validation/index.js';
import type { EstimateRequest } from '../../lib/validation/schemas.js';
import { response271 } from '../fixtures/x12/build.js';

function answer(ebs: string[], question: EligibilityQuestion = {}): SummaryFigures {
  const read = interpret271Figures(response271(ebs), question);
  if (!read.result.ok) throw new Error(read.result.error.message);
  return read.result.value;
}

/** Deductible $1,500 with $300 left, 20% coinsurance, out-of-pocket $3,000 with $500 left (individual, in network). */
const PLAN = [
  'EB*1**30^33',
  'EB*C*IND*30***23*1500*****Y',
  'EB*C*IND*30***29*300*****Y',
  'EB*A*IND*30*****.2****Y',
  'EB*G*IND*30***23*3000*****Y',
  'EB*G*IND*30***29*500*****Y',
  'EB*B*IND*30***27*15*****Y*HC:99213',
  'EB*I**AL',
];

describe('worked examples', () => {
  it('deductible, then coinsurance, then the out-of-pocket cap, against running balances', () => {
    const s = answer(PLAN);
    const e = estimateOf({ lines: [{ amount: 1000 }, { amount: 400 }, { amount: 2000 }] }, s);
    // Line 1, $1,000.00: deductible min(1000, 300) = 300; coinsurance (1000 − 300) × 20% = 140;
    //   patient 300 + 140 = 440 ≤ 500 left; plan 1000 − 440 = 560. Left: deductible 0, out-of-pocket 60.
    // Line 2, $400.00: deductible 0; coinsurance 400 × 20% = 80, capped at the 60 left → 60; plan 340.
    // Line 3, $2,000.00: coinsurance 400, capped at 0 → patient 0; plan 2,000.
    // Totals: patient 440 + 60 + 0 = 500; plan 560 + 340 + 2000 = 2,900 (= 3,400 − 500).
    expect(e.lines.map((l) => [l.basis, l.deductible, l.coinsurance, l.patientOwes, l.planPays])).toEqual([
      ['service', '$300.00', '$140.00', '$440.00', '$560.00'],
      ['service', '$0.00', '$60.00', '$60.00', '$340.00'],
      ['service', '$0.00', '$0.00', '$0.00', '$2,000.00'],
    ]);
    expect([e.patientOwes, e.planPays, e.complete]).toEqual(['$500.00', '$2,900.00', true]);
    expect(e.lines[0]).toEqual({
      serviceTypeCode: '30',
      serviceTypeSource: 'request',
      amount: '$1,000.00',
      basis: 'service',
      copay: '$0.00',
      deductible: '$300.00',
      coinsurance: '$140.00',
      patientOwes: '$440.00',
      planPays: '$560.00',
    });
  });

  it('a procedure’s own copay, a service that is not covered, and a service that falls back to the plan', () => {
    const s = answer(PLAN, { serviceTypeCodes: ['33', 'AL'], procedureCodes: ['99213'] });
    const e = estimateOf(
      {
        lines: [
          { procedureCode: '99213', amount: 120 },
          { serviceTypeCode: 'AL', amount: 80 },
          { serviceTypeCode: '33', amount: 100 },
        ],
      },
      s,
    );
    // Line 1: the 99213 entry has a $15.00 copay → patient min(15, 120) = 15; plan 105. Out-of-pocket left 500 − 15 = 485.
    // Line 2: AL is NotCovered → patient owes all $80.00; plan 0; balances untouched.
    // Line 3: 33 has no rows of its own → the plan's figures (fromPlan): deductible min(100, 300) = 100; coinsurance 0; patient 100.
    expect(s.benefits.find((b) => b.serviceType.code === 'AL')!.status).toBe('NotCovered');
    expect(e.lines.map((l) => [l.basis, l.copay, l.deductible, l.patientOwes, l.planPays])).toEqual([
      ['procedure', '$15.00', '$0.00', '$15.00', '$105.00'],
      ['service', '$0.00', '$0.00', '$80.00', '$0.00'],
      ['service', '$0.00', '$100.00', '$100.00', '$0.00'],
    ]);
    expect(e.patientOwes).toBe('$195.00');
  });

  it('rounds the coinsurance half away from zero on whole cents', () => {
    // $10.05 × 12.5% = 1005 × 1250 / 10000 = 125.625 cents → 126 cents = $1.26; plan 1005 − 126 = 879 cents.
    const s = answer(['EB*1**30', 'EB*C*IND*30***29*0*****Y', 'EB*A*IND*30*****.125****Y', 'EB*G*IND*30***29*5000*****Y']);
    const e = estimateOf({ lines: [{ amount: 10.05 }] }, s);
    expect([e.lines[0]!.coinsurance, e.planPays]).toEqual(['$1.26', '$8.79']);
    // 0.1 + 0.2 style drift cannot happen: three lines of $0.10 at 0% deductible-only make exactly $0.30.
    const d = estimateOf(
      { lines: [{ amount: 0.1 }, { amount: 0.1 }, { amount: 0.1 }] },
      answer(['EB*1**30', 'EB*C*IND*30***29*1000*****Y', 'EB*G*IND*30***29*5000*****Y']),
    );
    expect(d.patientOwes).toBe('$0.30');
  });

  it('the family remaining caps the individual one when both are known', () => {
    // Individual deductible left $300, family $200 → $200 applies: $250 → deductible 200, coinsurance 50 × 20% = 10; patient 210.
    const s = answer([...PLAN, 'EB*C*FAM*30***29*200*****Y']);
    expect(estimateOf({ lines: [{ amount: 250 }] }, s).lines[0]!.patientOwes).toBe('$210.00');
  });

  it('a missing coinsurance makes the line N/A and is named; later lines go on with the balances known so far', () => {
    const s = answer(['EB*1**30', 'EB*C*IND*30***29*100*****Y']);
    const e = estimateOf({ lines: [{ amount: 250 }, { amount: 80 }] }, s);
    // Line 1: deductible 100, the other 150 needs a coinsurance the payer did not give → N/A, ["coinsurance"].
    // Line 2: the $100 deductible is still all there (line 1 counted for nothing): deductible 80, nothing left for coinsurance;
    //   patient 80, no out-of-pocket figure → no cap, named.
    expect(e.lines[0]).toMatchObject({ deductible: '$100.00', coinsurance: 'N/A', patientOwes: 'N/A', planPays: 'N/A', missing: ['coinsurance'] });
    expect(e.lines[1]).toMatchObject({ deductible: '$80.00', patientOwes: '$80.00', planPays: '$0.00', missing: ['stopLossRemaining'] });
    expect([e.patientOwes, e.planPays, e.complete]).toEqual(['N/A', 'N/A', false]);
  });

  it('a missing deductible remaining is named too; never a guess', () => {
    // The payer gives the deductible's total but not what is left of it.
    const e = estimateOf({ lines: [{ amount: 100 }] }, answer(['EB*1**30', 'EB*C*IND*30***23*500*****Y', 'EB*A*IND*30*****.2****Y']));
    expect(e.lines[0]).toMatchObject({ deductible: 'N/A', patientOwes: 'N/A', missing: ['deductibleRemaining'] });
  });

  it('out of network uses the out-of-network figures', () => {
    const s = answer(['EB*1**30', 'EB*C*IND*30***29*0*****N', 'EB*A*IND*30*****.4****N', 'EB*G*IND*30***29*9000*****N']);
    // $500 × 40% = $200.
    expect(estimateOf({ network: 'out', lines: [{ amount: 500 }] }, s)).toMatchObject({
      network: 'out',
      patientOwes: '$200.00',
      planPays: '$300.00',
      complete: true,
    });
  });
});

describe('mock mode', () => {
  const set = (n: number) => ({ ...MOCK_PATIENTS[n - 1]! });
  it('computes from the mock figures (plan basis); without estimate the body is the mock’s three keys, key for key', () => {
    const plain = mockEligibility(set(1));
    expect(plain.ok && Object.keys(plain.body)).toEqual(['inNetwork', 'outNetwork', 'message']);
    const result = mockEligibility({ ...set(2), estimate: { lines: [{ amount: 1000 }] } });
    if (!result.ok) throw new Error('expected success');
    expect(Object.keys(result.body)).toEqual(['inNetwork', 'outNetwork', 'message', 'estimate']);
    // Set 2 in network: no copay; deductible left min($3,000.00, family $4,250.50) = 3000 → all $1,000 is deductible; 0% coinsurance.
    // Mock figures have no out-of-pocket remaining: no cap, named.
    expect(result.body.estimate!.lines[0]).toEqual({
      serviceTypeCode: '30',
      serviceTypeSource: 'request',
      amount: '$1,000.00',
      basis: 'plan',
      copay: '$0.00',
      deductible: '$1,000.00',
      coinsurance: '$0.00',
      patientOwes: '$1,000.00',
      planPays: '$0.00',
      missing: ['stopLossRemaining'],
    });
  });
  it('set 1’s copay: $20.00 of a $150.00 visit', () => {
    const result = mockEligibility({ ...set(1), estimate: { lines: [{ amount: 150 }] } });
    expect(result.ok && result.body.estimate!.patientOwes).toBe('$20.00');
  });
});

/** A small seeded generator (mulberry32): the same cases on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The estimate's money text ("$1,234.50", two decimals, never negative) as cents, to check its sums; undefined for "N/A". */
const centsOf = (text: string): bigint | undefined => (text === 'N/A' ? undefined : BigInt(text.replace(/[$,.]/g, '')));

describe('properties over 2,000 random plans and visits', () => {
  const next = random(20250315);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const dollars = (max: number) => Math.floor(next() * max * 100) / 100;
  const money = (n: number) => cents(BigInt(Math.round(n * 100)));
  const level = () => ({
    copay: next() < 0.3 ? money(dollars(80)) : NOT_KNOWN,
    deductible: { total: NOT_KNOWN, remaining: next() < 0.9 ? money(dollars(3000)) : NOT_KNOWN },
    coinsurance: next() < 0.9 ? basisPoints(BigInt(Math.round(pick([0, 10, 12.5, 20, 33.33, 50, 100]) * 100))) : NOT_KNOWN,
    stopLoss: NOT_KNOWN,
    stopLossRemaining: next() < 0.8 ? money(dollars(5000)) : NOT_KNOWN,
  });
  const cases = Array.from({ length: 2000 }, () => {
    const block: Block = { individual: level(), family: level() };
    const sources: EstimateSources = { inNetwork: block, outNetwork: block };
    const request: EstimateRequest = { lines: Array.from({ length: 1 + Math.floor(next() * 6) }, () => ({ amount: Math.max(0.01, dollars(4000)) })) };
    return { block, request, estimate: estimateOf(request, sources) };
  });

  it('patient + plan = amount on every complete line, both ≥ 0', () => {
    const broken: unknown[] = [];
    let complete = 0;
    for (const { estimate } of cases) {
      for (const line of estimate.lines) {
        if (line.patientOwes === 'N/A') continue;
        complete++;
        const owes = centsOf(line.patientOwes)!;
        const pays = centsOf(line.planPays)!;
        const parts = centsOf(line.copay)! + centsOf(line.deductible)! + centsOf(line.coinsurance)!;
        if (owes + pays !== centsOf(line.amount) || owes < 0n || pays < 0n || parts !== owes) broken.push(line);
      }
    }
    expect(broken).toEqual([]);
    expect(complete).toBeGreaterThan(3000);
  });

  it('the patient never pays past the out-of-pocket remaining (capped by the family’s when known)', () => {
    let capped = 0;
    const over: unknown[] = [];
    for (const { block, estimate } of cases) {
      const own = block.individual.stopLossRemaining;
      if (own === undefined) continue;
      const family = block.family.stopLossRemaining;
      const cap = family === undefined || family > own ? own : family;
      const paid = estimate.lines.reduce((sum, line) => sum + (centsOf(line.patientOwes) ?? 0n), 0n);
      if (paid > cap) over.push({ block, lines: estimate.lines });
      if (paid === cap) capped++;
    }
    expect(over).toEqual([]);
    expect(capped).toBeGreaterThan(50); // the cap is really reached, not only respected
  });

  it('totals are the sums of the lines, or N/A when a line is; complete exactly when no line misses a figure', () => {
    for (const { estimate } of cases) {
      const open = estimate.lines.some((line) => line.patientOwes === 'N/A');
      if (open) expect(estimate.patientOwes).toBe('N/A');
      else expect(centsOf(estimate.patientOwes)).toBe(estimate.lines.reduce((sum, line) => sum + centsOf(line.patientOwes)!, 0n));
      expect(estimate.complete).toBe(estimate.lines.every((line) => line.missing === undefined));
    }
  });
});

describe('the request', () => {
  it('estimate codes join the 270’s lists, duplicates merged; the default 30 joins only with other codes', () => {
    expect(codesAsked({ estimate: { lines: [{ amount: 1 }] } })).toEqual({});
    expect(
      codesAsked({
        serviceTypeCodes: ['98'],
        procedureCodes: ['99213'],
        estimate: {
          lines: [
            { procedureCode: '99214', serviceTypeCode: '98', amount: 1 },
            { procedureCode: '99213', amount: 2 },
          ],
        },
      }),
    ).toEqual({
      serviceTypeCodes: ['98'],
      procedureCodes: ['99213', '99214'],
    });
    expect(codesAsked({ estimate: { lines: [{ serviceTypeCode: 'AL', amount: 1 }] } })).toEqual({ serviceTypeCodes: ['30', 'AL'] });
  });

  const body = (estimate: unknown, extra: Record<string, unknown> = {}) => ({
    patientFirstName: 'John',
    patientLastName: 'Doe',
    patientDOB: '01-01-1980',
    patientMemberId: '123456789',
    dateOfCoverage: '01-01-2025',
    payerId: 'PAYER001',
    providerId: 'PROVIDER001',
    estimate,
    ...extra,
  });
  const errors = (estimate: unknown, extra?: Record<string, unknown>) => {
    const result = validateBody('eligibility', body(estimate, extra), { clock: fixedClock('2025-06-01T00:00:00Z') });
    return result.ok ? [] : (result.error.errors ?? []);
  };
  it('accepts 1–20 lines with amounts > 0, ≤ 1,000,000, in cents', () => {
    expect(errors({ network: 'out', lines: [{ amount: 0.01 }, { procedureCode: 'D0120', serviceTypeCode: '35', amount: 1_000_000 }] })).toEqual([]);
  });
  it('refuses amounts out of bounds or with more than two decimals, in plain words', () => {
    expect(errors({ lines: [{ amount: 0 }] })).toEqual([{ field: 'estimate.lines[0].amount', message: 'must be more than 0' }]);
    expect(errors({ lines: [{ amount: 1_000_000.01 }] })).toEqual([{ field: 'estimate.lines[0].amount', message: 'must be at most 1,000,000' }]);
    expect(errors({ lines: [{ amount: 10.005 }] })).toEqual([{ field: 'estimate.lines[0].amount', message: 'must have at most two decimals (cents)' }]);
    expect(errors({ lines: [] })[0]!.message).toBe('must list at least 1 estimate line');
    expect(errors({ lines: [{ amount: 5, serviceTypeCode: 'ZZ' }] })).toEqual([
      { field: 'estimate.lines[0].serviceTypeCode', message: 'must be an X12 005010 service type code' },
    ]);
  });
  it('the merged lists keep the limit of 10 each', () => {
    const procedures = ['99201', '99202', '99203', '99204', '99205', '99211', '99212', '99213', '99214', '99215'];
    expect(errors({ lines: [{ procedureCode: '99213', amount: 5 }] }, { procedureCodes: procedures })).toEqual([]);
    expect(errors({ lines: [{ procedureCode: '99381', amount: 5 }] }, { procedureCodes: procedures })[0]).toEqual({
      field: 'estimate.lines',
      message: 'must name at most 10 procedure codes together with procedureCodes (the 270 asks about at most 10)',
    });
  });
});
