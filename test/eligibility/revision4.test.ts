/**
 * Revision 4 (docs/eligibility.md#revision-4-figures-a-biller-would-quote): one test per rule, each on
 * a small 271 written for it after the shape of the public payer reply the rule comes from (payer
 * names, codes and amounts invented; no patient of any reply). Rule 10 (per-visit deductibles) is
 * tested with the estimate.
 */
import { describe, it, expect } from '@jest/globals';
import { interpret271 } from '../../lib/eligibility/interpret.js';
import type { BenefitSummary, EligibilityQuestion, ServiceBenefit } from '../../lib/eligibility/types.js';
import { response271, type Response271Options } from '../fixtures/x12/build.js';

function answer(ebs: string[], question: EligibilityQuestion = {}, options?: Response271Options): BenefitSummary {
  const read = interpret271(response271(ebs, options), question);
  if (!read.result.ok) throw new Error(read.result.error.message);
  return read.result.value;
}
const entry = (s: BenefitSummary, code: string): ServiceBenefit => s.benefits.find((b) => b.serviceType.code === code)!;
const codes = (s: BenefitSummary) => s.notices.map((n) => n.code);
const notice = (s: BenefitSummary, code: string) => s.notices.find((n) => n.code === code)?.message;
/** An EB segment from its elements EB01…, so the many empty elements are counted, not typed. */
const eb = (...elements: string[]) => ['EB', ...elements].join('*');

describe('rule 1: the drop rules apply in order', () => {
  it('a family filler (99999) is dropped before it could make the individual $0 W row a placeholder', () => {
    const s = answer(['EB*1**30*PR*HDHP', 'EB*C*IND*30***23*0*****W', 'EB*C*FAM*30***23*99999*****Y']);
    expect(s.inNetwork.individual.deductible.total).toBe('$0.00');
    expect(s.inNetwork.family.deductible.total).toBe('N/A');
    expect(codes(s)).not.toContain('FAMILY_LEVEL_ONLY');
  });
  it('Part B rows outside the date of service do not drop the Part A rows', () => {
    const s = answer(['EB*1**30*MA', 'EB*C*IND*30*MA**29*1676', 'EB*1**30*MB', 'DTP*291*D8*20260101', 'EB*C*IND*30*MB**29*257', 'DTP*291*D8*20260101'], {
      dateOfCoverage: '20250315',
    });
    expect(s.inNetwork.individual.deductible.remaining).toBe('$1,676.00');
    expect(s.plan.insuranceType?.code).toBe('MA');
  });
});

describe('rule 2: a service the payer states a cost share for, under an active plan, is Active', () => {
  const rows = ['EB*1**30^1*HM*OPEN ACCESS', 'EB*B*IND*UC***27*50*****Y', 'EB*B*IND*AL***27*20*****N'];
  it('an in-network copay row makes an Unknown service Active', () => {
    expect(entry(answer(rows, { serviceTypeCodes: ['UC'] }), 'UC').status).toBe('Active');
  });
  it('an out-of-network-only row does not; nor does any row without an active 30', () => {
    expect(entry(answer(rows, { serviceTypeCodes: ['AL'] }), 'AL').status).toBe('Unknown');
    expect(entry(answer(['EB*6**30', 'EB*B*IND*UC***27*50*****Y'], { serviceTypeCodes: ['UC'] }), 'UC').status).toBe('Unknown');
  });
});

describe('rule 3: SERVICE_NOT_RETURNED says what the entries show', () => {
  const rows = ['EB*1**30^1*PR*CHOICE PPO', 'EB*C*IND*30***23*1500*****Y'];
  it('service types: the plan figures where it has them (fromPlan), N/A elsewhere', () => {
    const s = answer(rows, { serviceTypeCodes: ['MH'] });
    expect(notice(s, 'SERVICE_NOT_RETURNED')).toBe(
      "The payer returned nothing specific for service type MH (Mental Health); their entries show the plan's general figures where it has them (fromPlan) and N/A elsewhere; confirm service-specific cost shares with the payer.",
    );
    expect(entry(s, 'MH').fromPlan).toEqual(['deductible']);
  });
  it('procedures keep their sentence; both together make one notice, service types first', () => {
    const s = answer(rows, { serviceTypeCodes: ['MH'], procedureCodes: ['90837'] });
    expect(s.notices.filter((n) => n.code === 'SERVICE_NOT_RETURNED')).toHaveLength(1);
    expect(notice(s, 'SERVICE_NOT_RETURNED')).toBe(
      "The payer returned nothing specific for service type MH (Mental Health); their entries show the plan's general figures where it has them (fromPlan) and N/A elsewhere; confirm service-specific cost shares with the payer. The payer returned nothing for procedure 90837; figures for it are N/A, so ask the payer directly.",
    );
  });
});

describe('rule 4: dental- and vision-only plans', () => {
  const dental = [
    'EB*1*IND*35*DEN*SMILE DENTAL PPO',
    'EB*C*IND*35***23*50*****Y',
    'EB*F*IND*35***23*1500*****Y',
    'EB*A*IND*41*****0*****Y',
    'EB*A*IND*25*****.2*****Y',
  ];
  it('35 ranks as 30 for the plan-wide slots; plan.scope and PLAN_SCOPE say so', () => {
    const s = answer(dental);
    expect(s.inNetwork.individual.deductible.total).toBe('$50.00');
    expect(s.plan.scope).toBe('dental');
    expect(notice(s, 'PLAN_SCOPE')).toBe('The payer answered for a dental-only plan; medical services are not covered by it.');
  });
  it('medical service types do not fall back to the dental plan; dental ones do', () => {
    const s = answer(dental, { serviceTypeCodes: ['30', '98', '25'] });
    expect(entry(s, '30').inNetwork.individual.deductible.total).toBe('N/A');
    expect(entry(s, '98').fromPlan).toEqual([]);
    expect(entry(s, '25').inNetwork.individual.deductible.total).toBe('$50.00');
    expect(entry(s, '25').fromPlan).toEqual(['deductible']);
  });
  it('a vision-only plan is vision; a medical plan says nothing', () => {
    expect(answer(['EB*1*IND*AL*VIS*CLEAR VIEW', 'EB*B*IND*AL***27*10*****Y']).plan.scope).toBe('vision');
    expect(answer(['EB*1*IND*AL*VIS*CLEAR VIEW', 'EB*B*IND*AL***27*10*****Y']).inNetwork.individual.copay).toBe('$10.00');
    const medical = answer(['EB*1**30^35*PR*PPO', 'EB*C*IND*30***23*500']);
    expect(medical.plan.scope).toBeUndefined();
    expect(codes(medical)).not.toContain('PLAN_SCOPE');
  });
  it('a row listing 1 (medical care) beside 35 and AL is a medical plan', () => {
    const s = answer(['EB*1**1^33^35^47^86^88^98^AL^MH^UC', 'EB*B**1^33^35^98*HM*GOLD 123 PLAN*27*10.00*****Y']);
    expect(s.plan.scope).toBeUndefined();
    expect(codes(s)).not.toContain('PLAN_SCOPE');
  });
});

describe('rule 5: office visits sent as BY/BZ', () => {
  const rows = ['EB*1**30^1*HM*OPEN ACCESS', 'EB*B*IND*BY***27*30*****Y', 'EB*B*IND*BZ***27*0*****Y', 'EB*C*IND*30***23*1000*****Y'];
  it('the plan-wide copay takes the sick visit (BY) before the well visit (BZ)', () => {
    expect(answer(rows).inNetwork.individual.copay).toBe('$30.00');
  });
  it('benefits[98] with no 98 row takes the BY rows, says fromService, and is not named as not returned', () => {
    const s = answer(rows, { serviceTypeCodes: ['98'] });
    const visit = entry(s, '98');
    expect(visit.fromService).toBe('BY');
    expect(visit.inNetwork.individual.copay).toBe('$30.00');
    expect(visit.status).toBe('Active');
    expect(visit.fromPlan).toEqual(['deductible']);
    expect(codes(s)).not.toContain('SERVICE_NOT_RETURNED');
  });
  it('BZ when there is no BY row; a 98 row of its own wins', () => {
    expect(entry(answer(['EB*1**30', 'EB*B*IND*BZ***27*0*****Y'], { serviceTypeCodes: ['98'] }), '98').fromService).toBe('BZ');
    const own = entry(answer([...rows, 'EB*B*IND*98***27*45*****Y'], { serviceTypeCodes: ['98'] }), '98');
    expect(own.fromService).toBeUndefined();
    expect(own.inNetwork.individual.copay).toBe('$45.00');
  });
});

describe('rule 6: "varied benefit" placeholders', () => {
  it('an EB07 999 whose messages say VARIED is no figure; only that row goes', () => {
    const s = answer([
      'EB*1**30*HM*ADVANTAGE HMO',
      'EB*C*IND*30***23*999*****Y',
      'MSG*BENEFITS VARIED, SEE EVIDENCE OF COVERAGE',
      'EB*C*IND*30***29*200*****Y',
      'EB*C*IND*30***23*750*****W',
    ]);
    expect(s.inNetwork.individual.deductible).toEqual({ total: '$750.00', remaining: '$200.00' });
  });
  it('999.99 without such a message stays a figure', () => {
    expect(answer(['EB*1**30', 'EB*G*IND*30***23*999.99*****Y']).inNetwork.individual.stopLoss).toBe('$999.99');
  });
});

describe('rule 7: limitations need a limit', () => {
  it('an F row with no quantity, amount or HSD adds no limitation; its messages stay', () => {
    const e = entry(answer(['EB*1**30', 'EB*F*IND*33', 'MSG*SUBJECT TO MEDICAL NECESSITY'], { serviceTypeCodes: ['33'] }), '33');
    expect(e.limitations).toEqual([]);
    expect(e.messages).toEqual(['SUBJECT TO MEDICAL NECESSITY']);
  });
  it('an HSD limitation carries the row amount and the last visit; FREQUENCY_NOT_MET names the service', () => {
    const s = answer(['EB*1**30^AL', 'EB*F*IND*AL***23*150*****Y', 'HSD*VS*1***21*2', 'DTP*304*D8*20240610'], {
      serviceTypeCodes: ['AL'],
      dateOfCoverage: '20250315',
    });
    expect(entry(s, 'AL').limitations).toEqual([{ quantity: 1, unit: 'Visits', amount: '$150.00', period: 'Years', periodCount: 2, lastVisit: '2024-06-10' }]);
    expect(notice(s, 'FREQUENCY_NOT_MET')).toBe(
      "The payer's frequency limit for Vision (Optometry) is not met yet: last on 2024-06-10, allowed once per 2 years.",
    );
  });
  it('a limit already met, or an open last-visit date, raises no notice', () => {
    const met = answer(['EB*1**30^AL', 'EB*F*IND*AL', 'HSD*VS*1***21*1', 'DTP*304*D8*20240110'], { serviceTypeCodes: ['AL'], dateOfCoverage: '20250315' });
    expect(codes(met)).not.toContain('FREQUENCY_NOT_MET');
    const open = answer(['EB*1**30^AL', 'EB*F*IND*AL', 'HSD*VS*1***21*1', 'DTP*304*D8*99990101'], { serviceTypeCodes: ['AL'], dateOfCoverage: '20250315' });
    expect(entry(open, 'AL').limitations).toEqual([{ quantity: 1, unit: 'Visits', period: 'Years', periodCount: 1 }]);
    expect(codes(open)).not.toContain('FREQUENCY_NOT_MET');
  });
});

describe('rule 8: totals and remainings are a pair', () => {
  const rows = ['EB*1**30^1^MH', 'EB*C*IND*30***23*1000*****Y', 'EB*C*IND*30***29*400*****Y'];
  it('a plan remaining never pairs with the entry’s own, different total', () => {
    const e = entry(answer([...rows, 'EB*C*IND*MH***23*500*****Y'], { serviceTypeCodes: ['MH'] }), 'MH');
    expect(e.inNetwork.individual.deductible).toEqual({ total: '$500.00', remaining: 'N/A' });
  });
  it('the plan remaining of the same total pairs, and the entry says it came from the plan', () => {
    const e = entry(answer([...rows, 'EB*C*IND*MH***23*1000*****Y'], { serviceTypeCodes: ['MH'] }), 'MH');
    expect(e.inNetwork.individual.deductible).toEqual({ total: '$1,000.00', remaining: '$400.00' });
    expect(e.fromPlan).toEqual(['deductible']);
  });
  it('else the other network’s plan slot of the same total', () => {
    const s = answer(['EB*1**30^1^MH', 'EB*C*IND*30***23*1000*****N', 'EB*C*IND*30***29*250*****N', 'EB*C*IND*MH***23*1000*****Y'], {
      serviceTypeCodes: ['MH'],
    });
    expect(entry(s, 'MH').inNetwork.individual.deductible).toEqual({ total: '$1,000.00', remaining: '$250.00' });
  });
});

describe('rule 9: authorization per network', () => {
  it('in and out each say what every row of their network states; notes come from the Y rows', () => {
    const s = answer(
      [
        'EB*1**30^2',
        eb('A', 'IND', '2', '', '', '', '', '.2', '', '', 'Y', 'Y'),
        'MSG*PRIOR AUTH REQUIRED FOR INPATIENT SURGERY',
        eb('A', 'IND', '2', '', '', '', '', '.4', '', '', 'N', 'N'),
      ],
      { serviceTypeCodes: ['2'] },
    );
    const e = entry(s, '2');
    expect(e.authorization).toEqual({ in: true, out: false });
    expect(e.authorizationNotes).toEqual(['PRIOR AUTH REQUIRED FOR INPATIENT SURGERY']);
    expect(e.authorizationRequired).toBe(true);
  });
  it('"some" where rows differ, and then no authorizationRequired; {} where none states', () => {
    const s = answer(
      ['EB*1**30^2^MH', eb('B', 'IND', '2', '', '', '27', '250', '', '', '', 'Y', 'Y'), eb('B', 'IND', '2', '', '', '27', '50', '', '', '', 'N', 'W')],
      {
        serviceTypeCodes: ['2', 'MH'],
      },
    );
    expect(entry(s, '2').authorization).toEqual({ in: 'some', out: false });
    expect(entry(s, '2').authorizationRequired).toBeUndefined();
    expect(entry(s, 'MH').authorization).toEqual({});
  });
  it('procedures carry it too', () => {
    const s = answer(['EB*1**30', eb('B', 'IND', '98', '', '', '27', '40', '', '', '', 'Y', 'Y', 'HC:99213')], { procedureCodes: ['99213'] });
    expect(s.procedures![0]!.authorization).toEqual({ in: true });
  });
});

describe('rule 11: plan sections by what they cover', () => {
  it('a carve-out that comes first is not the plan: the section whose opening row lists 1 is', () => {
    const s = answer([
      'EB*1**30^47*HM*MENTAL HEALTH INPATIENT',
      'EB*C*IND*30***23*250*****Y',
      'EB*1**30^1^33^48^50^86^98*HM*OPEN ACCESS PLUS',
      'EB*C*IND*30***23*2000*****Y',
      'EB*1**30^AL*VS*VISION',
      'EB*C*IND*30***23*0*****Y',
    ]);
    expect(s.inNetwork.individual.deductible.total).toBe('$2,000.00');
    expect(s.plan.name).toBe('OPEN ACCESS PLUS');
  });
  it('without a 1, the section whose rows list the most distinct codes', () => {
    const s = answer(['EB*1**30*HM*CARVE OUT', 'EB*C*IND*30***23*250*****Y', 'EB*1**30^33^98*HM*CORE PLAN', 'EB*C*IND*30***23*900*****Y']);
    expect(s.inNetwork.individual.deductible.total).toBe('$900.00');
  });
});

describe('rule 12: date of death', () => {
  it('the patient’s DTP*442 gives dateOfDeath, PATIENT_DECEASED, and Inactive after it', () => {
    const s = answer(['EB*1**30*MB'], { dateOfCoverage: '20250315' }, { subscriber: ['DTP*442*D8*20250201'] });
    expect(s.subscriber.dateOfDeath).toBe('2025-02-01');
    expect(s.coverageStatus).toBe('Inactive');
    expect(notice(s, 'PATIENT_DECEASED')).toBe('The payer reports a date of death for the patient; check the date of service.');
  });
  it('a service before the date of death keeps the payer’s status; a dependent’s date is the dependent’s', () => {
    expect(answer(['EB*1**30*MB'], { dateOfCoverage: '20250115' }, { subscriber: ['DTP*442*D8*20250201'] }).coverageStatus).toBe('Active');
    const s = answer(['EB*1**30'], { dateOfCoverage: '20250315' }, { dependent: true, dependentSegments: ['DTP*442*D8*20250201'] });
    expect(s.dependent?.dateOfDeath).toBe('2025-02-01');
    expect(s.coverageStatus).toBe('Inactive');
  });
});

describe('rule 13: drug-only other plans', () => {
  it('a stand-alone Part D contract or an R row listing only 88 stays an other payer, without OTHER_PAYER', () => {
    const s = answer([
      'EB*1**30*MB',
      'EB*R**30*OT',
      'REF*18*S5601 001',
      'LS*2120',
      'NM1*PRP*2*RX PART D PLAN',
      'LE*2120',
      'EB*R**88*OT',
      'LS*2120',
      'NM1*PR*2*PHARMACY BENEFIT CO',
      'LE*2120',
    ]);
    expect(s.otherPayers.map((p) => p.name)).toEqual(['RX PART D PLAN', 'PHARMACY BENEFIT CO']);
    expect(codes(s)).not.toContain('OTHER_PAYER');
  });
  it('an other medical payer still raises it', () => {
    expect(codes(answer(['EB*1**30', 'EB*R**30^88*C1', 'LS*2120', 'NM1*PRP*2*EMPLOYER PLAN', 'LE*2120']))).toContain('OTHER_PAYER');
  });
});

describe('rule 14: "contact the payer" rows', () => {
  it('names each requested service whose only rows are EB01 U, with the 2120 entity', () => {
    const s = answer(['EB*1**30^1', 'EB*U**MH', 'LS*2120', 'NM1*VN*2*MINDWELL BEHAVIORAL', 'PER*IC**TE*8005550100', 'LE*2120', 'EB*U**UC'], {
      serviceTypeCodes: ['MH', 'UC'],
    });
    expect(notice(s, 'CONTACT_PAYER')).toBe(
      'For service type MH (Mental Health) the payer says to contact MINDWELL BEHAVIORAL for benefit details. For service type UC (Urgent Care) the payer says to contact the payer for benefit details.',
    );
  });
  it('a service with other rows besides U is not named', () => {
    expect(codes(answer(['EB*1**30^1^MH', 'EB*U**MH'], { serviceTypeCodes: ['MH'] }))).not.toContain('CONTACT_PAYER');
  });
});

describe('rule 15: HMO rows', () => {
  it('an L row names the primary care provider; an N row the restricted provider', () => {
    const s = answer([
      'EB*1**30*HM*HMO SELECT',
      'EB*L',
      'LS*2120',
      'NM1*P3*1*SMITH*JOHN****XX*1234567893',
      'LE*2120',
      'EB*N',
      'LS*2120',
      'NM1*1P*2*CITY MEDICAL GROUP',
      'LE*2120',
    ]);
    expect(notice(s, 'PCP_ON_FILE')).toBe('The payer has a primary care provider on file: JOHN SMITH, NPI 1234567893; referrals may be needed.');
    expect(notice(s, 'RESTRICTED_PROVIDER')).toBe('Services are restricted to CITY MEDICAL GROUP.');
  });
  it('an L row outside the date of service adds nothing', () => {
    const s = answer(['EB*1**30', 'EB*L', 'DTP*346*D8*20260101', 'LS*2120', 'NM1*P3*1*SMITH*JOHN****XX*1234567893', 'LE*2120'], { dateOfCoverage: '20250315' });
    expect(codes(s)).not.toContain('PCP_ON_FILE');
  });
});

describe('rule 16: plan details from REF and DTP', () => {
  it('plan.name from REF*18 REF03 when the plan row has no EB05; eligibility dates from DTP*307', () => {
    const s = answer(['EB*1**30*PR'], {}, { subscriber: ['REF*18*PLN500*GOLD PLAN 500', 'DTP*307*RD8*20250101-20251231'] });
    expect(s.plan).toMatchObject({ name: 'GOLD PLAN 500', planNumber: 'PLN500', eligibilityBegin: '2025-01-01', eligibilityEnd: '2025-12-31' });
  });
  it('DTP*356/357 win over 307; a 307 D8 is the begin; EB05 wins over REF03', () => {
    const s = answer(['EB*1**30*PR*CHOICE'], {}, { subscriber: ['REF*18*PLN500*GOLD PLAN 500', 'DTP*307*D8*20240101', 'DTP*357*D8*20251231'] });
    expect(s.plan).toMatchObject({ name: 'CHOICE', eligibilityBegin: '2024-01-01', eligibilityEnd: '2025-12-31' });
  });
});
