/**
 * The estimate, revision 2 (docs/eligibility.md#estimate-revision-2): one small 271 per rule, each shaped
 * after a real payer reply, and the estimate's figures to the cent (the arithmetic is in the comments).
 * The question each reply answers is the one the 270 asks (codesAsked), as the route builds it.
 */
import { describe, expect, it } from '@jest/globals';
import { fixedClock } from '../../lib/config/clock.js';
import { codesAsked, estimateOf } from '../../lib/eligibility/estimate.js';
import type { SummaryFigures } from '../../lib/eligibility/figures.js';
import { interpret271Figures } from '../../lib/eligibility/interpret.js';
import { mockEligibility } from '../../lib/eligibility/mock.js';
import type { EligibilityQuestion, Estimate } from '../../lib/eligibility/types.js';
import { MOCK_PATIENTS } from '../../lib/mock/patients.js';
import { validateBody } from '../../lib/validation/index.js';
import type { EstimateRequest } from '../../lib/validation/schemas.js';
import { response271 } from '../fixtures/x12/build.js';

/** The reply read for the codes the 270 asked (the request's own and the estimate's lines). */
function answerFor(ebs: string[], estimate: EstimateRequest, extra: { serviceTypeCodes?: string[]; dateOfCoverage?: string } = {}): SummaryFigures {
  const asked = codesAsked({ ...(extra.serviceTypeCodes ? { serviceTypeCodes: extra.serviceTypeCodes } : {}), estimate });
  const question: EligibilityQuestion = { ...asked, ...(extra.dateOfCoverage ? { dateOfCoverage: extra.dateOfCoverage } : {}) };
  const read = interpret271Figures(response271(ebs), question);
  if (!read.result.ok) throw new Error(read.result.error.message);
  return read.result.value;
}
const estimate = (ebs: string[], request: EstimateRequest, extra?: { serviceTypeCodes?: string[]; dateOfCoverage?: string }): Estimate =>
  estimateOf(request, answerFor(ebs, request, extra));
const figures = (e: Estimate) => e.lines.map((l) => [l.copay, l.deductible, l.coinsurance, l.patientOwes, l.planPays, l.missing ?? []]);

/** A PPO's plan-wide rows: deductible $1,000 with $400 left, 20% coinsurance, out-of-pocket $5,000 with $3,000 left (in network). */
const PPO = [
  'EB*1**30^86^98^MH^33**CHOICE PLUS',
  'EB*C*IND*30***23*1000*****Y',
  'EB*C*IND*30***29*400*****Y',
  'EB*A*IND*30*****.2****Y',
  'EB*G*IND*30***23*5000*****Y',
  'EB*G*IND*30***29*3000*****Y',
];

describe('1. a line’s service type from the procedure crosswalk', () => {
  // Emergency room: a $150.00 copay and 0% coinsurance under 86, as UnitedHealthcare replies write it.
  const reply = [...PPO, 'EB*B*IND*86****150*****Y', 'EB*A*IND*86*****0****Y'];
  const request: EstimateRequest = { lines: [{ procedureCode: '99283', amount: 800 }] };

  it('99283 (emergency visit) is answered under 86 and says it came from the crosswalk', () => {
    const e = estimate(reply, request);
    // 86: copay $150.00 above $0 with 0% coinsurance → the copay; plan 800 − 150 = 650.
    expect(e.lines[0]).toEqual({
      procedureCode: '99283',
      serviceTypeCode: '86',
      serviceTypeSource: 'crosswalk',
      amount: '$800.00',
      basis: 'service',
      copay: '$150.00',
      deductible: '$0.00',
      coinsurance: '$0.00',
      patientOwes: '$150.00',
      planPays: '$650.00',
    });
    expect(e.complete).toBe(true);
  });

  it('the crosswalk’s service type is asked in the 270 like any line’s, and counts toward the 10', () => {
    expect(codesAsked({ estimate: request })).toEqual({ serviceTypeCodes: ['30', '86'], procedureCodes: ['99283'] });
    const ten = ['1', '2', '4', '5', '7', '30', '33', '35', '98', 'AL'];
    const body = {
      patientFirstName: 'John',
      patientLastName: 'Doe',
      patientDOB: '01-01-1980',
      patientMemberId: '123456789',
      dateOfCoverage: '01-01-2025',
      payerId: 'PAYER001',
      providerId: 'PROVIDER001',
      serviceTypeCodes: ten,
    };
    const errors = (lines: EstimateRequest['lines']) => {
      const result = validateBody('eligibility', { ...body, estimate: { lines } }, { clock: fixedClock('2025-06-01T00:00:00Z') });
      return result.ok ? [] : (result.error.errors ?? []).map((error) => error.field);
    };
    // 99213 → 98, already among the ten; 99283 → 86, an eleventh.
    expect(errors([{ procedureCode: '99213', amount: 5 }])).toEqual([]);
    expect(errors([{ procedureCode: '99283', amount: 5 }])).toEqual(['estimate.lines']);
  });
});

describe('2. a $0 copay beside a coinsurance, a copay beside a coinsurance, deductible waived', () => {
  it('$0 copay with 20% coinsurance goes to the deductible and coinsurance', () => {
    // Office visit rows as Cigna sends them: copay $0 and coinsurance 20% under 98.
    const e = estimate([...PPO, 'EB*B*IND*98****0*****Y', 'EB*A*IND*98*****.2****Y'], { lines: [{ serviceTypeCode: '98', amount: 250 }] });
    // Deductible min(250, 400) = 250 → nothing left for coinsurance; patient 250.
    // A second visit would see $150 of deductible left; one line is enough here.
    expect(figures(e)).toEqual([['$0.00', '$250.00', '$0.00', '$250.00', '$0.00', []]]);
  });

  it('a copay above $0 with a coinsurance above 0%: the copay is charged and coinsuranceAfterCopay is named', () => {
    const e = estimate([...PPO, 'EB*B*IND*98****30*****Y', 'EB*A*IND*98*****.2****Y'], { lines: [{ serviceTypeCode: '98', amount: 250 }] });
    expect(figures(e)).toEqual([['$30.00', '$0.00', '$0.00', '$30.00', '$220.00', ['coinsuranceAfterCopay']]]);
    expect(e.complete).toBe(false);
  });

  it('a copay above $0 with 0% coinsurance is the whole cost share', () => {
    const e = estimate([...PPO, 'EB*B*IND*98****25*****Y', 'EB*A*IND*98*****0****Y'], { lines: [{ serviceTypeCode: '98', amount: 250 }] });
    expect(figures(e)).toEqual([['$25.00', '$0.00', '$0.00', '$25.00', '$225.00', []]]);
  });

  it('“Ded Waived” in the entry’s messages (any case) makes the deductible part $0', () => {
    // Outpatient mental health: 10% coinsurance, deductible waived (Aetna writes the message on the A row).
    const e = estimate([...PPO, 'EB*A*IND*MH*****.1****Y', 'MSG*Ded Waived'], { lines: [{ serviceTypeCode: 'MH', amount: 200 }] });
    // Deductible 0 although $400 is left; coinsurance 200 × 10% = 20.
    expect(figures(e)).toEqual([['$0.00', '$0.00', '$20.00', '$20.00', '$180.00', []]]);
  });
});

describe('3. per-visit deductibles first', () => {
  it('the ER per-visit deductible, then the yearly deductible and coinsurance; counted toward the out-of-pocket maximum', () => {
    const reply = [
      'EB*1**30^86',
      'EB*C*IND*30***23*1000*****Y',
      'EB*C*IND*30***29*400*****Y',
      'EB*A*IND*30*****.2****Y',
      'EB*G*IND*30***23*5000*****Y',
      'EB*G*IND*30***29*700*****Y',
      'EB*C*IND*86***27*150*****Y',
      'MSG*PER VISIT DEDUCTIBLE',
    ];
    const e = estimate(reply, {
      lines: [
        { procedureCode: '99284', amount: 1000 },
        { procedureCode: '99284', amount: 100 },
      ],
    });
    // Line 1: per visit 150; rest 850: deductible min(850, 400) = 400; coinsurance 450 × 20% = 90; patient 640 ≤ 700 left.
    // Line 2: per visit min(150, 100) = 100, capped by the 60 left of the out-of-pocket maximum → 60; plan 40.
    expect(figures(e)).toEqual([
      ['$0.00', '$550.00', '$90.00', '$640.00', '$360.00', []],
      ['$0.00', '$60.00', '$0.00', '$60.00', '$40.00', []],
    ]);
    expect([e.patientOwes, e.planPays]).toEqual(['$700.00', '$400.00']);
  });
});

describe('4. not covered out of network', () => {
  it('a service with an out-of-network exclusion (EB12 N) is the whole amount out of network', () => {
    // Chiropractic covered in network only, as BCBS plans reply.
    const reply = [
      ...PPO,
      'EB*A*IND*33*****.2****Y',
      'EB*I**33*********N',
      'EB*C*IND*30***29*800*****N',
      'EB*A*IND*30*****.4****N',
      'EB*G*IND*30***29*9000*****N',
    ];
    const e = estimate(reply, { network: 'out', lines: [{ serviceTypeCode: '33', amount: 80 }] });
    expect(figures(e)).toEqual([['$0.00', '$0.00', '$0.00', '$80.00', '$0.00', []]]);
  });

  it('an HMO whose only exclusions are out of network for 30: every out-of-network line is the whole amount', () => {
    const reply = [...PPO, 'EB*I**30*********N', 'MSG*NO OUT OF NETWORK BENEFITS'];
    const e = estimate(reply, { network: 'out', lines: [{ serviceTypeCode: '98', amount: 150 }, { amount: 60.5 }] });
    expect(figures(e)).toEqual([
      ['$0.00', '$0.00', '$0.00', '$150.00', '$0.00', []],
      ['$0.00', '$0.00', '$0.00', '$60.50', '$0.00', []],
    ]);
    // In network nothing changes: deductible 150 of the 400 left; patient 150.
    expect(figures(estimate(reply, { lines: [{ serviceTypeCode: '98', amount: 150 }] }))).toEqual([['$0.00', '$150.00', '$0.00', '$150.00', '$0.00', []]]);
  });
});

describe('5. out-of-pocket maximum met', () => {
  it('a known $0.00 remaining makes the line $0.00 with nothing missing, whatever else is unknown', () => {
    // Coinsurance and deductible remaining not given; the out-of-pocket maximum is met.
    const e = estimate(['EB*1**30', 'EB*C*IND*30***23*2000*****Y', 'EB*G*IND*30***23*6000*****Y', 'EB*G*IND*30***29*0*****Y'], { lines: [{ amount: 900 }] });
    expect(figures(e)).toEqual([['$0.00', '$0.00', '$0.00', '$0.00', '$900.00', []]]);
    expect(e.complete).toBe(true);
  });
});

describe('6. family-only accumulators', () => {
  it('a non-embedded HSA: the family remainings stand in for the individual ones, not named as missing', () => {
    const reply = [
      'EB*1*FAM*30**HSA PLAN',
      'EB*C*FAM*30***23*6000*****W',
      'EB*C*FAM*30***29*2500*****W',
      'EB*C*IND*30***23*0*****W',
      'EB*G*FAM*30***23*10000*****W',
      'EB*G*FAM*30***29*2700*****W',
      'EB*G*IND*30***23*0*****W',
      'EB*A*FAM*30*****.2****W',
    ];
    const s = answerFor(reply, { lines: [{ amount: 1 }] });
    expect(s.notices.map((n) => n.code)).toContain('FAMILY_LEVEL_ONLY');
    const e = estimateOf({ lines: [{ amount: 3000 }, { amount: 1000 }] }, s);
    // Line 1: deductible min(3000, 2500) = 2500; coinsurance 500 × 20% = 100; patient 2,600 ≤ 2,700.
    // Line 2: deductible 0; coinsurance 200, capped by the 100 left → 100; plan 900.
    expect(figures(e)).toEqual([
      ['$0.00', '$2,500.00', '$100.00', '$2,600.00', '$400.00', []],
      ['$0.00', '$0.00', '$100.00', '$100.00', '$900.00', []],
    ]);
    expect(e.lines[0]!.basis).toBe('service');
  });
});

describe('7. no deductible in the reply', () => {
  it('$0.00 for the arithmetic, deductibleRemaining named where the deductible was used, not on copay-only lines', () => {
    const reply = ['EB*1**30^98', 'EB*A*IND*30*****.2****Y', 'EB*G*IND*30***29*3000*****Y', 'EB*B*IND*98****25*****Y', 'EB*A*IND*98*****0****Y'];
    const e = estimate(reply, { lines: [{ amount: 500 }, { serviceTypeCode: '98', amount: 120 }] });
    // Line 1: deductible 0; coinsurance 500 × 20% = 100. Line 2: the $25.00 copay.
    expect(figures(e)).toEqual([
      ['$0.00', '$0.00', '$100.00', '$100.00', '$400.00', ['deductibleRemaining']],
      ['$25.00', '$0.00', '$0.00', '$25.00', '$95.00', []],
    ]);
    expect([e.patientOwes, e.complete]).toEqual(['$125.00', false]);
  });

  it('Original Medicare has no out-of-pocket maximum: its absence is not named', () => {
    // Part B as CMS's HETS replies it: the deductible under 96, 20% coinsurance, no out-of-pocket maximum.
    const reply = ['EB*1**30*MB', 'EB*C**96*MB**23*257', 'EB*C**96*MB**29*57', 'EB*A**96*MB****.2'];
    const e = estimate(reply, { lines: [{ amount: 200 }] });
    // Deductible min(200, 57) = 57; coinsurance 143 × 20% = 28.60; patient 85.60.
    expect(figures(e)).toEqual([['$0.00', '$57.00', '$28.60', '$85.60', '$114.40', []]]);
    expect(e.complete).toBe(true);
  });
});

describe('8. someone else may pay first', () => {
  const MEDICARE = ['EB*1**30*MB', 'EB*C**96*MB**23*257', 'EB*C**96*MB**29*0', 'EB*A**96*MB****.2'];

  it('a Medicare Advantage notice names primaryPayer on every line; the figures stay', () => {
    const reply = [...MEDICARE, 'EB*R**30*HN', 'DTP*290*D8*20240101', 'LS*2120', 'NM1*PRP*2*SUNSHINE MEDICARE ADVANTAGE', 'LE*2120'];
    const s = answerFor(reply, { lines: [{ amount: 1 }] }, { dateOfCoverage: '20250315' });
    expect(s.notices.map((n) => n.code)).toContain('MEDICARE_ADVANTAGE');
    const e = estimateOf({ lines: [{ amount: 100 }] }, s);
    expect(figures(e)).toEqual([['$0.00', '$0.00', '$20.00', '$20.00', '$80.00', ['primaryPayer']]]);
    expect(e.complete).toBe(false);
  });

  it('an active Medicare secondary payer type (12: working aged) does too; an ended one does not', () => {
    const working = [...MEDICARE, 'EB*R**30*12', 'DTP*290*D8*20230101', 'LS*2120', 'NM1*PRP*2*ACME EMPLOYER PLAN', 'LE*2120'];
    const ended = [...MEDICARE, 'EB*R**30*14', 'DTP*290*RD8*20200101-20201231', 'LS*2120', 'NM1*PRP*2*OLD AUTO INSURER', 'LE*2120'];
    const request: EstimateRequest = { lines: [{ amount: 100 }, { serviceTypeCode: '98', amount: 50 }] };
    expect(estimate(working, request, { dateOfCoverage: '20250315' }).lines.map((l) => l.missing)).toEqual([['primaryPayer'], ['primaryPayer']]);
    expect(estimate(ended, request, { dateOfCoverage: '20250315' }).lines.map((l) => l.missing)).toEqual([undefined, undefined]);
  });
});

describe('9. balance billing out of network', () => {
  const reply = [...PPO, 'EB*C*IND*30***29*0*****N', 'EB*A*IND*30*****.4****N', 'EB*G*IND*30***29*9000*****N'];
  it('out of network the estimate says the provider may bill the difference', () => {
    const e = estimate(reply, { network: 'out', lines: [{ amount: 500 }] });
    // $500 × 40% = $200.
    expect(e).toMatchObject({ network: 'out', patientOwes: '$200.00', planPays: '$300.00', complete: true, balanceBillingPossible: true });
    expect(e.balanceBillingNote).toBe('Out of network, the provider may bill the difference between the charge and the allowed amount.');
    expect(Object.keys(e)).toEqual(['network', 'lines', 'patientOwes', 'planPays', 'complete', 'balanceBillingPossible', 'balanceBillingNote']);
  });
  it('in network it does not', () => {
    expect(Object.keys(estimate(reply, { lines: [{ amount: 500 }] }))).toEqual(['network', 'lines', 'patientOwes', 'planPays', 'complete']);
  });
});

describe('mock mode still estimates from the mock figures', () => {
  it('set 1: a $20.00 copay beside 10% coinsurance names coinsuranceAfterCopay; no out-of-pocket remaining in mock figures', () => {
    const result = mockEligibility({ ...MOCK_PATIENTS[0]!, estimate: { lines: [{ procedureCode: '99213', amount: 150 }] } });
    if (!result.ok) throw new Error('expected mock set 1');
    expect(result.body.estimate!.lines[0]).toEqual({
      procedureCode: '99213',
      serviceTypeCode: '98',
      serviceTypeSource: 'crosswalk',
      amount: '$150.00',
      basis: 'plan',
      copay: '$20.00',
      deductible: '$0.00',
      coinsurance: '$0.00',
      patientOwes: '$20.00',
      planPays: '$130.00',
      missing: ['coinsuranceAfterCopay', 'stopLossRemaining'],
    });
  });
  it('set 3 out of network: every figure N/A, named; balance billing said', () => {
    const result = mockEligibility({ ...MOCK_PATIENTS[2]!, estimate: { network: 'out', lines: [{ amount: 100 }] } });
    if (!result.ok) throw new Error('expected mock set 3');
    expect(result.body.estimate).toMatchObject({ patientOwes: 'N/A', complete: false, balanceBillingPossible: true });
    expect(result.body.estimate!.lines[0]!.missing).toEqual(['deductibleRemaining', 'coinsurance']);
  });
});
