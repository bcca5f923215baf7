/**
 * Revision 3 (docs/eligibility.md#revision-3-per-service-answers-a-biller-trusts): one test per
 * rule, each on a small 271 written for it after the public reply the rule comes from.
 */
import { describe, it, expect } from '@jest/globals';
import { interpret271 } from '../../lib/eligibility/interpret.js';
import type { BenefitSummary, EligibilityQuestion, ServiceBenefit } from '../../lib/eligibility/types.js';
import { response271 } from '../fixtures/x12/build.js';

function answer(ebs: string[], question: EligibilityQuestion = {}): BenefitSummary {
  const read = interpret271(response271(ebs), question);
  if (!read.result.ok) throw new Error(read.result.error.message);
  return read.result.value;
}
const entry = (s: BenefitSummary, code: string): ServiceBenefit => s.benefits.find((b) => b.serviceType.code === code)!;
const codes = (s: BenefitSummary) => s.notices.map((n) => n.code);

describe('rule 1: an EB01 1–8 row with no EB03 speaks for the plan (30)', () => {
  const medicare4010 = ['EB*1*IND**MA', 'EB*1*IND**MB', 'EB*C*IND**MB*MEDICARE PART B*23*257', 'EB*A*IND**MB*MEDICARE PART B*27**.2'];
  it('benefits[30] is Active and no notice says 30 was not returned', () => {
    const s = answer(medicare4010, { serviceTypeCodes: ['30'] });
    expect(entry(s, '30').status).toBe('Active');
    expect(codes(s)).not.toContain('SERVICE_NOT_RETURNED');
  });
  it('a row with no EB03 still answers nothing for other codes', () => {
    const s = answer(medicare4010, { serviceTypeCodes: ['30', 'AL'] });
    expect(entry(s, 'AL').status).toBe('Unknown');
    expect(s.notices.find((n) => n.code === 'SERVICE_NOT_RETURNED')!.message).toContain('service type AL');
    expect(s.notices.find((n) => n.code === 'SERVICE_NOT_RETURNED')!.message).not.toContain('service type 30');
  });
  it('an empty EB03 on a cost-share row (B) is not coverage: 30 stays Unknown without a 1–8 row', () => {
    expect(entry(answer(['EB*B*IND**PR**27*25']), '30').status).toBe('Unknown');
  });
});

describe('rule 2: the plan row is chosen after every drop rule', () => {
  it('Part A beside Part B: the plan is Part B', () => {
    const s = answer(['EB*1*IND**MA', 'EB*1*IND**MB']);
    expect(s.plan.insuranceType).toEqual({ code: 'MB', name: 'Medicare Part B' });
  });
  it('a plan row outside the date of service gives way to the one inside it', () => {
    const s = answer(['EB*1**30*HM*GOLD', 'DTP*291*RD8*20240101-20241231', 'EB*1**30*PR*GOLD'], { dateOfCoverage: '20250315' });
    expect(s.plan.insuranceType?.code).toBe('PR');
  });
});

describe('rule 3: copay and coinsurance are per person', () => {
  it('a FAM cost-share row fills the individual slot when no individual row fits', () => {
    const s = answer(['EB*1**30', 'EB*B*FAM*30***27*35*****Y', 'EB*A*FAM*30*****.2****Y']);
    expect(s.inNetwork.individual.copay).toBe('$35.00');
    expect(s.inNetwork.individual.coinsurance).toBe('20%');
    expect(s.inNetwork.family.copay).toBe('$35.00');
  });
  it('an individual row still wins, and deductibles keep their levels', () => {
    const s = answer(['EB*1**30', 'EB*B*FAM*30***27*35*****Y', 'EB*B*IND*30***27*20*****Y', 'EB*C*FAM*30***23*3000*****Y']);
    expect(s.inNetwork.individual.copay).toBe('$20.00');
    expect(s.inNetwork.individual.deductible.total).toBe('N/A');
  });
});

describe('rule 4: an HSA family plan’s IND 0 W rows are placeholders', () => {
  const hsa = ['EB*1**30*PR*HSA FAMILY', 'EB*C*IND*30***23*0*****W', 'EB*C*FAM*30***23*6000*****Y', 'EB*G*IND*30***23*0*****W', 'EB*G*FAM*30***23*12000*****Y'];
  it('the $0 individual deductible and out-of-pocket rows are dropped; FAMILY_LEVEL_ONLY says why', () => {
    const s = answer(hsa);
    expect(s.inNetwork.individual.deductible.total).toBe('N/A');
    expect(s.inNetwork.individual.stopLoss).toBe('N/A');
    expect(s.inNetwork.family.deductible.total).toBe('$6,000.00');
    expect(codes(s)).toContain('FAMILY_LEVEL_ONLY');
  });
  it('an IND 0 W row stays when no family row of the same EB01 has an amount above 0', () => {
    const s = answer(['EB*1**30', 'EB*C*IND*30***23*0*****W', 'EB*C*FAM*30***23*0*****W']);
    expect(s.inNetwork.individual.deductible.total).toBe('$0.00');
  });
  it('an IND 0 Y row is a real $0', () => {
    expect(answer(['EB*1**30', 'EB*C*IND*30***23*0*****Y', 'EB*C*FAM*30***23*6000*****Y']).inNetwork.individual.deductible.total).toBe('$0.00');
  });
});

describe('rule 5: NotCovered means not covered in network', () => {
  it('an exclusion sent for out of network only leaves the out-of-network blocks N/A', () => {
    const s = answer(['EB*1**30', 'EB*C*IND*30***23*500*****N', 'EB*I**AL*********N'], { serviceTypeCodes: ['AL'] });
    const al = entry(s, 'AL');
    expect(al.status).toBe('Unknown');
    expect(al.outNetwork.individual.deductible.total).toBe('N/A');
  });
  it('an exclusion for in network (or any network) marks the service NotCovered', () => {
    expect(entry(answer(['EB*1**30', 'EB*I**AL*********Y'], { serviceTypeCodes: ['AL'] }), 'AL').status).toBe('NotCovered');
    expect(entry(answer(['EB*1**30', 'EB*I**AL'], { serviceTypeCodes: ['AL'] }), 'AL').status).toBe('NotCovered');
  });
});

describe('rule 6: per-service figures fall back to the plan', () => {
  const rows = [
    'EB*1**30^33^98',
    'EB*C*IND*30***23*1500*****Y',
    'EB*A*IND*30*****.2****Y',
    'EB*B*IND*98***27*25*****Y',
    'EB*B*IND*33***27*40*****Y',
    'EB*I**AL*********Y',
  ];
  it('an Active service with no figures of its own shows the plan’s, and says which', () => {
    const chiro = entry(answer(rows, { serviceTypeCodes: ['33'] }), '33');
    expect(chiro.inNetwork.individual.copay).toBe('$40.00');
    expect(chiro.inNetwork.individual.deductible.total).toBe('$1,500.00');
    expect(chiro.inNetwork.individual.coinsurance).toBe('20%');
    expect(chiro.fromPlan).toEqual(['coinsurance', 'deductible']);
  });
  it('the 98 copay the plan-wide summary took never spreads to another service', () => {
    const s = answer(rows, { serviceTypeCodes: ['33', '30'] });
    expect(s.inNetwork.individual.copay).toBe('$25.00');
    expect(entry(s, '30').inNetwork.individual.copay).toBe('N/A');
  });
  it('NotCovered entries never fall back; fromPlan is [] when nothing came from the plan', () => {
    const s = answer(rows, { serviceTypeCodes: ['AL', '98'] });
    expect(entry(s, 'AL').inNetwork.individual.deductible.total).toBe('N/A');
    expect(entry(s, 'AL').fromPlan).toEqual([]);
    expect(entry(s, '98').fromPlan).toEqual(['coinsurance', 'deductible']);
  });
  it('procedures do not fall back', () => {
    const s = answer(rows, { procedureCodes: ['99213'] });
    expect(s.procedures![0]!.inNetwork.individual.deductible.total).toBe('N/A');
  });
});

describe('rule 7: visit and day limits', () => {
  it('HSD segments become limitations, deduplicated, in document order', () => {
    // An F row with HSDs yields one limitation per HSD, never a bare one of its own (docs/eligibility.md#limitations-need-a-limit).
    const s = answer(['EB*1**30', 'EB*F*IND*33***23***VS*20**Y', 'HSD*VS*12***29*1', 'HSD*VS*12***29*1', 'HSD*DY*30***22'], { serviceTypeCodes: ['33'] });
    expect(entry(s, '33').limitations).toEqual([
      { quantity: 12, unit: 'Visits', period: 'Remaining', periodCount: 1, remaining: true },
      { quantity: 30, unit: 'Days', period: 'Service Year' },
    ]);
  });
  it('an F row with a filler amount keeps its quantity; only the amount goes', () => {
    const s = answer(['EB*1**30', 'EB*F*IND*33***23*99999.99**VS*30**Y'], { serviceTypeCodes: ['33'] });
    expect(entry(s, '33').limitations).toEqual([{ quantity: 30, unit: 'Visits', period: 'Calendar Year', network: 'in', level: 'individual' }]);
  });
});

describe('rule 8: Medicare Advantage', () => {
  const advantage = (extra: string[]) => ['EB*1**30*MA', 'EB*1**30*MB', ...extra];
  it('an HN row on Original Medicare raises MEDICARE_ADVANTAGE instead of OTHER_PAYER', () => {
    const s = answer(advantage(['EB*R**30*HN', 'DTP*290*D8*20230101', 'LS*2120', 'NM1*PRP*2*SUNSHINE ADVANTAGE*****PI*MAP1', 'LE*2120']), {
      dateOfCoverage: '20250315',
    });
    expect(s.notices).toEqual([
      {
        code: 'MEDICARE_ADVANTAGE',
        message:
          'The patient is enrolled in a Medicare Advantage plan (SUNSHINE ADVANTAGE since 2023-01-01): bill that plan; the Original Medicare figures may not apply.',
      },
    ]);
  });
  it('a REF*18 contract number (H1234…) names it too; one notice for several rows, the earliest date', () => {
    const s = answer(advantage(['EB*R**30*OT', 'REF*18*H1234 001', 'DTP*290*D8*20240601', 'EB*R**88*OT', 'REF*18*H1234 001', 'DTP*290*D8*20240101']));
    expect(s.notices.map((n) => n.message)).toEqual([
      'The patient is enrolled in a Medicare Advantage plan (since 2024-01-01): bill that plan; the Original Medicare figures may not apply.',
    ]);
  });
  it('on a commercial plan an HN row is an ordinary other payer', () => {
    expect(codes(answer(['EB*1**30*PR', 'EB*R**30*HN']))).toEqual(['OTHER_PAYER']);
  });
});

describe('rule 9: other payers in time', () => {
  const rows = [
    'EB*1**30*PR',
    'EB*R**30*C1',
    'DTP*291*RD8*20150101-20181231',
    'LS*2120',
    'NM1*PRP*2*OLD PLAN',
    'LE*2120',
    'EB*R**30*C1',
    'DTP*292*D8*20260101',
    'EB*R**30*C1',
    'LS*2120',
    'NM1*PRP*2*CURRENT PLAN',
    'LE*2120',
  ];
  it('291/292 date the coverage; activeOnDate compares it with the date of coverage; notices name only active payers', () => {
    const s = answer(rows, { dateOfCoverage: '20250315' });
    expect(s.otherPayers.map((p) => [p.coverageBegin, p.coverageEnd, p.activeOnDate])).toEqual([
      ['2015-01-01', '2018-12-31', false],
      ['2026-01-01', undefined, false],
      [undefined, undefined, true],
    ]);
    expect(s.notices[0]!.message).toBe('The payer reports other coverage (CURRENT PLAN, Commercial); check which plan pays first.');
  });
  it('no active other payer: no OTHER_PAYER notice', () => {
    expect(codes(answer(rows.slice(0, 6), { dateOfCoverage: '20250315' }))).toEqual([]);
  });
});
