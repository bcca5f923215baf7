/**
 * The revision-2 answer on small hand-written 271s: candidates (later plan sections, date of
 * service, fillers), 96 on Part B, $0.00 remaining, Original Medicare, stopLossRemaining, plan and
 * people, benefits, procedures, other payers, notices, several transactions. docs/eligibility.md.
 */
import { describe, it, expect } from '@jest/globals';
import { interpret271 } from '../../lib/eligibility/interpret.js';
import type { BenefitSummary, EligibilityQuestion } from '../../lib/eligibility/types.js';
import { body271, envelope, ISA, response271, type Response271Options } from '../fixtures/x12/build.js';

function answer(text: string, question: EligibilityQuestion = {}): BenefitSummary {
  const read = interpret271(text, question);
  if (!read.result.ok) throw new Error(read.result.error.message);
  return read.result.value;
}
const of = (ebs: string[], question?: EligibilityQuestion, options?: Response271Options) => answer(response271(ebs, options), question);

describe('other plan sections are dropped', () => {
  // The medical plan is the section whose opening row lists 1 (docs/eligibility.md#plan-sections-by-what-they-cover).
  const rows = [
    'EB*1**30^1^33*PR*GOLD PPO',
    'EB*C*IND*30***23*1500*****Y',
    'EB*1**30^AL*VN*VISION PLUS',
    'EB*G*IND*30***23*0*****N',
    'EB*C*IND*30***23*1*****Y',
  ];
  it('a later 1–5 row listing 30 with another EB05 opens another section: it and every row after it are dropped', () => {
    const s = of(rows);
    expect(s.inNetwork.individual.deductible.total).toBe('$1,500.00');
    expect(s.outNetwork.individual.stopLoss).toBe('N/A'); // the vision plan's $0 would have filled it
  });
  it('the same name (any case, trimmed) or an empty EB05 opens no section', () => {
    expect(of(['EB*1**30**Gold PPO', 'EB*1**30** GOLD PPO ', 'EB*1**30', 'EB*G*IND*30***23*5000']).inNetwork.individual.stopLoss).toBe('$5,000.00');
  });
  it('without a first 1–5 row listing 30, nothing is dropped by this rule', () => {
    expect(of(['EB*1**AL**VISION', 'EB*G*IND*30***23*5000']).inNetwork.individual.stopLoss).toBe('$5,000.00');
  });
});

describe('date of service', () => {
  const date = (dtp: string) => of(['EB*C*IND*30***23*100', dtp, 'EB*C*IND*30***23*200'], { dateOfCoverage: '20250315' }).inNetwork.individual.deductible.total;
  it('an RD8 period that does not contain the date drops the row', () => {
    expect(date('DTP*292*RD8*20240101-20241231')).toBe('$200.00');
    expect(date('DTP*292*RD8*20250101-20251231')).toBe('$100.00');
    expect(date('DTP*346*RD8*20250315-20250315')).toBe('$100.00');
  });
  it('a D8 is a begin date for 291/292/346/348/435 and an end date for 347/349', () => {
    expect(date('DTP*346*D8*20250401')).toBe('$200.00');
    expect(date('DTP*435*D8*20250315')).toBe('$100.00');
    expect(date('DTP*347*D8*20250314')).toBe('$200.00');
    expect(date('DTP*349*D8*20250315')).toBe('$100.00');
  });
  it('other qualifiers, unreadable dates and no date in the request keep the row', () => {
    expect(date('DTP*356*D8*20300101')).toBe('$100.00');
    expect(date('DTP*292*RD8*2025-2026')).toBe('$100.00');
    expect(of(['EB*C*IND*30***23*100', 'DTP*292*RD8*20240101-20241231']).inNetwork.individual.deductible.total).toBe('$100.00');
  });
});

describe('filler amounts', () => {
  it('drop the row and every row of the same EB01, EB02 and EB12', () => {
    const s = of(['EB*G*IND*30***23*99999.99*****Y', 'EB*G*IND*30***29*99999.99*****Y', 'EB*G*IND*30***24*0*****Y', 'EB*G*FAM*30***23*6000*****Y']);
    expect(s.inNetwork.individual.stopLoss).toBe('N/A');
    expect(s.inNetwork.individual.stopLossRemaining).toBe('N/A');
    expect(s.inNetwork.family.stopLoss).toBe('$6,000.00');
  });
  it('five or more 9s in the integer part, with or without cents', () => {
    for (const value of ['99999', '9999999', '99999.99'])
      expect(of([`EB*B*IND*30***27*${value}`, 'EB*B*IND*30***27*20*****N']).inNetwork.individual.copay).toBe('N/A');
    for (const value of ['9999', '99998', '199999']) expect(of([`EB*B*IND*30***27*${value}`]).inNetwork.individual.copay).not.toBe('N/A');
  });
});

describe('Part B (EB04 MB)', () => {
  it('96 ranks as 30, so the Part B deductible under 96 fills the slot', () => {
    const s = of(['EB*1**30*MB', 'EB*C**96*MB**23*257', 'EB*C**96*MB**29*0']);
    expect(s.inNetwork.individual.deductible).toEqual({ total: '$257.00', remaining: '$0.00' });
  });
  it('96 on a row without MB does not fit the plan-wide slots', () => {
    expect(of(['EB*C**96*HM**23*257']).inNetwork.individual.deductible.total).toBe('N/A');
  });
});

describe('remaining', () => {
  it('$0.00 when the total is exactly 0 and nothing says otherwise', () => {
    const s = of(['EB*C*IND*30***23*0.00', 'EB*C*IND*30***23*500*****N', 'EB*G*IND*30***23*0']);
    expect(s.inNetwork.individual.deductible.remaining).toBe('$0.00');
    expect(s.outNetwork.individual.deductible.remaining).toBe('N/A');
    expect(s.inNetwork.individual.stopLossRemaining).toBe('$0.00');
  });
  it('stopLossRemaining: the G row with EB06 29, else total minus year to date', () => {
    const s = of(['EB*G*IND*30***23*6000*****Y', 'EB*G*IND*30***29*4200*****Y', 'EB*G*FAM*30***23*12000', 'EB*G*FAM*30***24*2500.50']);
    expect(s.inNetwork.individual.stopLossRemaining).toBe('$4,200.00');
    expect(s.inNetwork.family.stopLossRemaining).toBe('$9,499.50');
    expect(s.inNetwork.individual.stopLoss).toBe('$6,000.00');
  });
  it('every level object has the 6 figures (24 slots)', () => {
    const s = of([]);
    for (const block of [s.inNetwork, s.outNetwork]) {
      for (const level of [block.individual, block.family])
        expect(Object.keys(level)).toEqual(['copay', 'deductible', 'coinsurance', 'stopLoss', 'stopLossRemaining']);
    }
  });
});

describe('Original Medicare has no family', () => {
  it('family slots are N/A when every typed 1–5 row is MA or MB', () => {
    const s = of(['EB*1**30*MA', 'EB*1**30*MB', 'EB*1**88', 'EB*A**30*MB****.2']);
    expect(s.inNetwork.individual.coinsurance).toBe('20%');
    expect(s.inNetwork.family.coinsurance).toBe('N/A');
    expect(s.benefits[0]!.inNetwork.family.coinsurance).toBe('N/A');
  });
  it('a Medicare Advantage (HN) row keeps the family', () => {
    expect(of(['EB*1**30*MB', 'EB*1**30*HN', 'EB*A**30*MB****.2']).inNetwork.family.coinsurance).toBe('20%');
  });
  it('no typed 1–5 row: the family stays', () => {
    expect(of(['EB*1**30', 'EB*A**30*****.2']).inNetwork.family.coinsurance).toBe('20%');
  });
});

describe('plan and people', () => {
  it('reads the plan row, 2100C REF and DTP, and the subscriber', () => {
    const s = of(
      ['EB*1**30*PR*GOLD PPO 1500', 'EB*1**AL*VN*VISION'],
      {},
      {
        subscriber: ['REF*6P*GRP100*ACME CORP', 'REF*18*PLAN7', 'DTP*346*D8*20250101', 'DTP*347*D8*99991231', 'DTP*356*D8*20190601'],
      },
    );
    expect(s.plan).toEqual({
      name: 'GOLD PPO 1500',
      insuranceType: { code: 'PR', name: 'Preferred Provider Organization (PPO)' },
      groupNumber: 'GRP100',
      groupName: 'ACME CORP',
      planNumber: 'PLAN7',
      planBegin: '2025-01-01',
      eligibilityBegin: '2019-06-01',
    });
    expect(s.subscriber).toEqual({ firstName: 'JANE', lastName: 'DOE', memberId: 'W000000001', dateOfBirth: '1980-01-01' });
    expect(s.dependent).toBeUndefined();
  });
  it('plan dates from DTP*291 RD8 when there is no 346/347; {} when nothing is known', () => {
    expect(of(['EB*1**30'], {}, { subscriber: ['DTP*291*RD8*20250101-20251231'] }).plan).toEqual({ planBegin: '2025-01-01', planEnd: '2025-12-31' });
    expect(of(['EB*6']).plan).toEqual({});
  });
  it('the dependent: 2100D first for plan keys, relationship from INS02', () => {
    const s = of(
      ['EB*1**30*HM'],
      {},
      { dependent: true, subscriber: ['REF*6P*SUBGRP', 'DTP*346*D8*20240101'], dependentSegments: ['INS*N*19', 'DTP*346*D8*20250201'] },
    );
    expect(s.plan).toEqual({ insuranceType: { code: 'HM', name: 'Health Maintenance Organization (HMO)' }, groupNumber: 'SUBGRP', planBegin: '2025-02-01' });
    expect(s.dependent).toEqual({ firstName: 'JUNIOR', lastName: 'DOE', dateOfBirth: '2010-01-01', relationship: 'child' });
    for (const [ins, relationship] of [
      ['01', 'spouse'],
      ['34', 'other adult'],
      ['53', 'other'],
    ]) {
      expect(of([], {}, { dependent: true, dependentSegments: [`INS*N*${ins}`] }).dependent?.relationship).toBe(relationship);
    }
    expect(of([], {}, { dependent: true }).dependent).toEqual({ firstName: 'JUNIOR', lastName: 'DOE', dateOfBirth: '2010-01-01' });
  });
});

describe('benefits per service type', () => {
  const rows = [
    'EB*1**30^33^AL*PR*GOLD PPO',
    'EB*B*IND*98***27*30*****Y',
    'EB*B*IND*UC***27*75****N*Y',
    'EB*B*IND*33***27*40****Y*Y',
    'MSG*PRIOR AUTHORIZATION REQUIRED AFTER 12 VISITS',
    'MSG* PRIOR AUTHORIZATION REQUIRED AFTER 12 VISITS ',
    'EB*F*IND*33***23***VS*20**Y',
    'EB*F*FAM*33***23*1500.5*****N',
    'EB*I**AL',
    'EB*6**48',
  ];
  it('one entry per requested code, then every code an A/B/C/F/G/I candidate lists, in first-seen order', () => {
    const s = of(rows, { serviceTypeCodes: ['33', 'AL', 'MH'] });
    expect(s.benefits.map((b) => b.serviceType.code)).toEqual(['33', 'AL', 'MH', '98', 'UC']);
    expect(s.benefits[0]!.serviceType).toEqual({ code: '33', name: 'Chiropractic' });
  });
  it('status, figures, authorization, limitations and messages of one service', () => {
    const s = of(rows, { serviceTypeCodes: ['33', 'AL', 'MH', '48'] });
    const chiro = s.benefits[0]!;
    expect(chiro.status).toBe('Active');
    expect(chiro.inNetwork.individual.copay).toBe('$40.00');
    expect(chiro.authorizationRequired).toBe(true);
    expect(chiro.limitations).toEqual([
      { quantity: 20, unit: 'Visits', period: 'Calendar Year', network: 'in', level: 'individual' },
      { amount: '$1,500.50', period: 'Calendar Year', network: 'out', level: 'family' },
    ]);
    expect(chiro.messages).toEqual(['PRIOR AUTHORIZATION REQUIRED AFTER 12 VISITS']);
    expect(s.benefits[1]!.status).toBe('Active'); // AL is listed by the 1 row, which wins over I
    expect(s.benefits.find((b) => b.serviceType.code === 'MH')!.status).toBe('Unknown');
    expect(s.benefits.find((b) => b.serviceType.code === '48')!.status).toBe('Inactive');
    expect(s.benefits.find((b) => b.serviceType.code === 'UC')!.authorizationRequired).toBe(false);
    expect('authorizationRequired' in s.benefits.find((b) => b.serviceType.code === '98')!).toBe(false);
  });
  it('NotCovered from an EB01 I row; the default request is 30 first', () => {
    const s = of(['EB*I**AL', 'EB*1**30']);
    expect(s.benefits.map((b) => [b.serviceType.code, b.status])).toEqual([
      ['30', 'Active'],
      ['AL', 'NotCovered'],
    ]);
  });
  it('the plan-wide slots still rank 30 first while an entry takes only rows listing its code', () => {
    const s = of(['EB*B*IND*33***27*40', 'EB*B*IND*30***27*20']);
    expect(s.inNetwork.individual.copay).toBe('$20.00');
    expect(s.benefits.find((b) => b.serviceType.code === '33')!.inNetwork.individual.copay).toBe('$40.00');
  });
  it('at most 100 entries and 10 messages', () => {
    const many = Array.from({ length: 120 }, (_, i) => `EB*B*IND*Z${i}***27*1`);
    expect(of(many).benefits).toHaveLength(100);
    const messages = ['EB*B*IND*30***27*1', ...Array.from({ length: 15 }, (_, i) => `MSG*NOTE ${i}`)];
    expect(of(messages).benefits[0]!.messages).toHaveLength(10);
  });
});

describe('procedures', () => {
  it('one entry per requested code from the EB13 rows carrying it; absent without procedureCodes', () => {
    const rows = ['EB*1**30', 'EB*B*IND*98***27*40*****Y*HC:99213', 'MSG*OFFICE VISIT', 'EB*A*IND*98*****0.1***Y*Y*HC:99213', 'EB*B*IND*98***27*25*****Y'];
    const s = of(rows, { procedureCodes: ['99213', 'D0120'] });
    expect(s.inNetwork.individual.copay).toBe('$25.00'); // the EB13 row stays out of the plan-wide slots
    expect(s.procedures).toHaveLength(2);
    expect(s.procedures![0]).toMatchObject({ code: '99213', authorizationRequired: true, messages: ['OFFICE VISIT'] });
    expect(s.procedures![0]!.inNetwork.individual).toMatchObject({ copay: '$40.00', coinsurance: '10%' });
    expect(s.procedures![1]!.inNetwork.individual.copay).toBe('N/A');
    expect(s.notices).toContainEqual({ code: 'SERVICE_NOT_RETURNED', message: expect.stringContaining('procedure D0120') });
    expect(of(rows).procedures).toBeUndefined();
  });
});

describe('other payers and notices', () => {
  const rows = [
    'EB*1**30*MA',
    'EB*R**30^88*HN',
    'DTP*290*RD8*20250101-20251231',
    'REF*IG*H1234-001',
    'LS*2120',
    'NM1*PRP*2*SUNSHINE MEDICARE ADVANTAGE*****PI*MAPLAN1',
    'LE*2120',
    'EB*R**88*OT',
    'LS*2120',
    'NM1*PR*2*RX PLAN*****MI*RX998',
    'LE*2120',
  ];
  it('one item per R row, with its 2120 payer and dates', () => {
    const s = of(rows);
    expect(s.otherPayers).toEqual([
      {
        name: 'SUNSHINE MEDICARE ADVANTAGE',
        payerId: 'MAPLAN1',
        insuranceType: { code: 'HN', name: 'Health Maintenance Organization (HMO) - Medicare Risk' },
        serviceTypes: ['30', '88'],
        coverageBegin: '2025-01-01',
        coverageEnd: '2025-12-31',
        memberId: 'H1234-001',
        activeOnDate: true,
      },
      { name: 'RX PLAN', insuranceType: { code: 'OT', name: 'Other' }, serviceTypes: ['88'], memberId: 'RX998', activeOnDate: true },
    ]);
    // On Original Medicare the HN row is a Medicare Advantage enrolment (docs/eligibility.md#medicare-advantage); the rest stay other payers.
    expect(s.notices.slice(0, 2)).toEqual([
      {
        code: 'MEDICARE_ADVANTAGE',
        message:
          'The patient is enrolled in a Medicare Advantage plan (SUNSHINE MEDICARE ADVANTAGE since 2025-01-01): bill that plan; the Original Medicare figures may not apply.',
      },
    ]);
    // The RX PLAN lists only 88 (pharmacy): a drug-only plan raises no OTHER_PAYER (docs/eligibility.md#drug-only-other-plans).
    expect(s.notices.map((n) => n.code)).not.toContain('OTHER_PAYER');
  });
  it('[] and no notices when nothing calls for them', () => {
    const s = of(['EB*1**30', 'EB*C*IND*30***23*500']);
    expect(s.otherPayers).toEqual([]);
    expect(s.notices).toEqual([]);
  });
  it('FAMILY_LEVEL_ONLY when only the family carries a deductible or out-of-pocket figure', () => {
    const s = of(['EB*1**30*PR*HSA BRONZE', 'EB*C*FAM*30***23*6000*****Y', 'EB*G*FAM*30***23*12000*****Y']);
    expect(s.inNetwork.individual.deductible.total).toBe('N/A');
    expect(s.notices.map((n) => n.code)).toEqual(['FAMILY_LEVEL_ONLY']);
    expect(s.notices[0]!.message).toContain('(in network)');
  });
  it('SERVICE_NOT_RETURNED names every explicitly requested code no row lists; the default 30 never counts', () => {
    expect(of(['EB*1**33'], { serviceTypeCodes: ['33', 'UC', 'AL'] }).notices).toEqual([
      {
        code: 'SERVICE_NOT_RETURNED',
        message:
          "The payer returned nothing specific for service type UC (Urgent Care), service type AL (Vision (Optometry)); their entries show the plan's general figures where it has them (fromPlan) and N/A elsewhere; confirm service-specific cost shares with the payer.",
      },
    ]);
    expect(of(['EB*1**33']).notices).toEqual([]);
    expect(of(['EB*1**33'], { serviceTypeCodes: ['30'] }).notices.map((n) => n.code)).toEqual(['SERVICE_NOT_RETURNED']);
  });
  it('notices never carry patient data', () => {
    const s = of(
      ['EB*1**30*PR', ...rows, 'EB*C*FAM*30***23*6000'],
      { serviceTypeCodes: ['UC'], procedureCodes: ['97110'] },
      { subscriber: ['REF*6P*GRP100*ACME CORP'] },
    );
    expect(s.notices).toHaveLength(3);
    for (const notice of s.notices) for (const secret of ['JANE', 'DOE', 'W000000001', '1980', 'H1234', 'GRP100']) expect(notice.message).not.toContain(secret);
  });
});

describe('several 271 transactions in one reply', () => {
  const two = (first: string[], second: string[]) => {
    const a = body271(first, { memberId: 'OTHER1' });
    const b = body271(second, { memberId: 'W000000001' });
    const st = (id: string, body: string[]) => [`ST*271*${id}*005010X279A1`, ...body, `SE*${body.length + 2}*${id}`].map((s) => `${s}~`);
    return [ISA, 'GS*HB*TESTPAYER*TESTSUBMIT*20250101*1200*7*X*005010X279A1~', ...st('0001', a), ...st('0002', b), 'GE*2*7~', 'IEA*1*000000042~'].join('\n');
  };
  it('answers from the first whose 2100C member id matches the request', () => {
    const text = two(['EB*1**30', 'EB*B*IND*30***27*10'], ['EB*1**30', 'EB*B*IND*30***27*20']);
    expect(answer(text, { memberId: 'w000000001' }).inNetwork.individual.copay).toBe('$20.00');
    expect(answer(text, { memberId: 'NOBODY' }).inNetwork.individual.copay).toBe('$10.00');
    expect(interpret271(text, { memberId: 'W000000001' }).warnings).toContain('2 271 transaction sets; number 2 is used');
  });
  it("only the answering transaction's AAAs count", () => {
    const text = two(['AAA*N**75*C'], ['EB*1**30', 'EB*B*IND*30***27*20']);
    expect(interpret271(text, { memberId: 'W000000001' }).result.ok).toBe(true);
    const other = interpret271(text, { memberId: 'OTHER1' });
    expect(other.result.ok).toBe(false);
    expect(other.aaaCodes).toEqual(['75']);
  });
  it('the envelope helper builds one transaction (sanity)', () => {
    expect(envelope(['BHT*0022*11']).match(/ST\*/g)).toHaveLength(1);
  });
});
