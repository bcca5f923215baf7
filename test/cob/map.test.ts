import { describe, it, expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cobErrors } from '../../lib/cob/aaa.js';
import { classifyCobAnswer } from '../../lib/cob/map.js';
import type { CobResult } from '../../lib/cob/types.js';
import type { Result } from '../../lib/errors/index.js';

/** classifyCobAnswer as lib/cob/check.ts calls it: with the reply's AAA errors, read once. */
const classify = (status: number, body: unknown, codes?: string[]) => classifyCobAnswer(status, body, cobErrors(body), codes);
/** A 200 answer without AAA errors: what the mapping of a COB answer gives. */
const mapped = (body: unknown, codes?: string[]) => classifyCobAnswer(200, body, [], codes);

type Json = Record<string, any>;
const fixture = (name: string): Json => JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/cob', `${name}.json`), 'utf8')) as Json;
const twoPlans = () => fixture('primacy-determined-two-plans');
const noCob = () => fixture('member-found-no-cob');

function value(result: Result<CobResult>): CobResult {
  if (!result.ok) throw new Error(`expected success, got ${result.error.code}`);
  return result.value;
}
function error(result: Result<CobResult>) {
  if (result.ok) throw new Error('expected an error');
  return result.error;
}
/** A minimal answer with the given rows. */
const answer = (rows: Json[], extra: Json = {}): Json => ({
  coordinationOfBenefits: { classification: 'CobInstanceExistsPrimacyUndetermined' },
  benefitsInformation: rows,
  ...extra,
});

describe('a 200 answer: the full answer', () => {
  it('maps a two-other-plan answer exactly', () => {
    expect(value(mapped(twoPlans()))).toEqual({
      cobCode: 'CobInstanceExistsPrimacyDetermined',
      requestedPlanBenefits: [
        {
          payerName: 'Aetna',
          serviceTypeCodes: [
            { code: '30', name: 'Health Benefit Plan Coverage' },
            { code: '88', name: 'Pharmacy' },
            { code: '98', name: 'Professional (Physician) Visit - Office' },
            { code: 'AL', name: 'Vision (Optometry)' },
          ],
          benefitDate: { planStartDate: '2024-01-10' },
        },
      ],
      additionalPlanBenefitInfo: [
        {
          payerName: 'CIGNA',
          payerPrimacy: 'PrimaryPayer',
          serviceTypeCodes: [
            { code: '30', name: 'Health Benefit Plan Coverage' },
            { code: '88', name: 'Pharmacy' },
          ],
          benefitDate: {
            overlapBeginDate: '2024-07-01',
            overlapEndDate: '2024-12-31',
            planStartDate: '2023-01-01',
            planEndDate: '2024-12-31',
            coordinationOfBenefits: '2024-07-01',
          },
          subscriber: { firstName: 'JANE', lastName: 'DOE', dateOfBirth: '1986-03-14', memberId: 'U1234567801' },
        },
        {
          payerName: 'UNITEDHEALTHCARE',
          payerPrimacy: 'TertiaryPayer',
          serviceTypeCodes: [{ code: 'MH', name: 'Mental Health' }],
          benefitDate: { planStartDate: '2024-05-01', coordinationOfBenefits: '2024-08-01' },
          subscriber: { firstName: 'John', lastName: 'Doe', memberId: '987654321' },
        },
      ],
    });
  });

  it('never exposes the payer entity PI value', () => {
    const out = JSON.stringify(value(mapped(twoPlans())));
    expect(out).not.toContain('1006');
    expect(out).not.toContain('2207');
  });

  it('never emits null or empty strings', () => {
    const out = JSON.stringify(value(mapped(twoPlans())));
    expect(out).not.toMatch(/null|""/);
  });
});

describe('a 200 answer: cobCode', () => {
  it("renames Stedi's MemberFoundNoCob to MemberFoundNoCOB", () => {
    expect(value(mapped(noCob())).cobCode).toBe('MemberFoundNoCOB');
  });

  it.each([
    'CoverageOverlapNoBenefitOverlap',
    'CoverageOverlapExistsNotSubjectToCob',
    'CobInstanceExistsPrimacyUndetermined',
    'CobInstanceExistsPrimacyDetermined',
  ])('passes %s through', (classification) => {
    expect(value(mapped({ coordinationOfBenefits: { classification } })).cobCode).toBe(classification);
  });

  it.each([['SomethingNew'], ['memberfoundnocob'], [''], [42]])('answers 502 for classification %p', (classification) => {
    const e = error(mapped({ coordinationOfBenefits: { classification } }));
    expect(e.code).toBe('UPSTREAM_ERROR');
    expect(e.status).toBe(502);
  });

  it('answers 502 when the classification or the whole object is missing', () => {
    expect(error(mapped({ benefitsInformation: [] })).status).toBe(502);
    expect(error(mapped(null)).status).toBe(502);
    expect(error(mapped([])).status).toBe(502);
    expect(error(mapped('{"x":1}')).status).toBe(502);
  });
});

describe('a 200 answer: requested plan', () => {
  it('takes planStartDate from planDateInformation.planBegin first', () => {
    expect(value(mapped(noCob())).requestedPlanBenefits[0]!.benefitDate).toEqual({ planStartDate: '2023-01-01' });
  });

  it('otherwise takes the earliest benefitBegin of the "1" rows, compared as dates not strings', () => {
    const rows = [
      { code: '1', serviceTypeCodes: ['30'], serviceTypes: ['Health Benefit Plan Coverage'], benefitsDateInformation: { benefitBegin: '2024-02-15' } },
      { code: '1', serviceTypeCodes: ['30'], serviceTypes: ['Health Benefit Plan Coverage'], benefitsDateInformation: { benefitBegin: '20240110' } },
      // An R row's earlier date must not count for the requested plan.
      { code: 'R', serviceTypeCodes: ['30'], serviceTypes: ['Health Benefit Plan Coverage'], benefitsDateInformation: { benefitBegin: '2020-01-01' } },
    ];
    expect(value(mapped(answer(rows))).requestedPlanBenefits[0]!.benefitDate).toEqual({ planStartDate: '2024-01-10' });
  });

  it('uses only EB01 "1" rows for service types, distinct pairs in first-seen order', () => {
    const rows = [
      { code: '6', serviceTypeCodes: ['UC'], serviceTypes: ['Urgent Care'] },
      { code: '1', serviceTypeCodes: ['88', '30'], serviceTypes: ['Pharmacy', 'Health Benefit Plan Coverage'] },
      { code: '1', serviceTypeCodes: ['30', '88'], serviceTypes: ['Health Benefit Plan Coverage', 'Pharmacy'] },
      { code: 'R', serviceTypeCodes: ['MH'], serviceTypes: ['Mental Health'] },
    ];
    expect(value(mapped(answer(rows))).requestedPlanBenefits[0]!.serviceTypeCodes).toEqual([
      { code: '88', name: 'Pharmacy' },
      { code: '30', name: 'Health Benefit Plan Coverage' },
    ]);
  });

  it('omits payerName and planStartDate when the answer lacks them', () => {
    const plan = value(mapped(answer([{ code: '1', serviceTypeCodes: ['30'] }], { payer: { name: '' } }))).requestedPlanBenefits;
    expect(plan).toEqual([{ serviceTypeCodes: [{ code: '30', name: 'Health Benefit Plan Coverage' }], benefitDate: {} }]);
  });

  it('names a code from the X12 list when Stedi left its name out', () => {
    const plan = value(mapped(answer([{ code: '1', serviceTypeCodes: ['AL'] }]))).requestedPlanBenefits[0]!;
    expect(plan.serviceTypeCodes).toEqual([{ code: 'AL', name: 'Vision (Optometry)' }]);
  });
});

describe('a 200 answer: additional plans', () => {
  const other = (payer: Json | undefined, insured: Json | undefined, extra: Json = {}): Json => ({
    code: 'R',
    serviceTypeCodes: ['30'],
    serviceTypes: ['Health Benefit Plan Coverage'],
    benefitsRelatedEntities: [payer, insured].filter(Boolean),
    ...extra,
  });
  const payer = (entityIdentifier: string, entityName = 'CIGNA') => ({
    entityIdentifier,
    entityName,
    entityIdentification: 'PI',
    entityIdentificationValue: '9999',
  });
  const insured = (memberId: string) => ({
    entityIdentifier: 'Insured or Subscriber',
    entityFirstname: 'Ann',
    entityLastname: 'Lee',
    entityIdentification: 'MI',
    entityIdentificationValue: memberId,
  });

  it('is [] when there is no R row', () => {
    expect(value(mapped(noCob())).additionalPlanBenefitInfo).toEqual([]);
  });

  it('groups R rows by other payer name and member id, in first-seen order', () => {
    const rows = [
      other(payer('Payer', 'B PLAN'), insured('M1')),
      other(payer('Payer', 'A PLAN'), insured('M1')),
      other(payer('Payer', 'B PLAN'), insured('M2')),
      other(payer('Payer', 'B PLAN'), insured('M1'), { serviceTypeCodes: ['88'], serviceTypes: ['Pharmacy'] }),
    ];
    const plans = value(mapped(answer(rows))).additionalPlanBenefitInfo;
    expect(plans.map((p) => [p.payerName, p.subscriber.memberId])).toEqual([
      ['B PLAN', 'M1'],
      ['A PLAN', 'M1'],
      ['B PLAN', 'M2'],
    ]);
    expect(plans[0]!.serviceTypeCodes).toEqual([
      { code: '30', name: 'Health Benefit Plan Coverage' },
      { code: '88', name: 'Pharmacy' },
    ]);
  });

  it.each([
    ['Primary Payer', 'PrimaryPayer'],
    ['Secondary Payer', 'SecondaryPayer'],
    ['Tertiary Payer', 'TertiaryPayer'],
    ['Payer', 'Undetermined'],
  ])('maps entityIdentifier %s to payerPrimacy %s', (identifier, primacy) => {
    const plans = value(mapped(answer([other(payer(identifier), insured('M1'))]))).additionalPlanBenefitInfo;
    expect(plans[0]!.payerPrimacy).toBe(primacy);
    expect(plans[0]!.payerName).toBe('CIGNA');
  });

  it('omits payerName, payerPrimacy and subscriber fields the answer does not carry', () => {
    const plans = value(mapped(answer([other(undefined, undefined)]))).additionalPlanBenefitInfo;
    expect(plans).toEqual([{ serviceTypeCodes: [{ code: '30', name: 'Health Benefit Plan Coverage' }], benefitDate: {}, subscriber: {} }]);
  });

  it('takes memberId only from the subscriber MI value, never from a PI value', () => {
    const piInsured = { entityIdentifier: 'Insured or Subscriber', entityFirstname: 'Ann', entityIdentification: 'PI', entityIdentificationValue: 'P123' };
    const plans = value(mapped(answer([other(payer('Primary Payer'), piInsured)]))).additionalPlanBenefitInfo;
    expect(plans[0]!.subscriber).toEqual({ firstName: 'Ann' });
    expect(JSON.stringify(plans)).not.toMatch(/P123|9999/);
  });

  it('keeps subscriber names as given and the date of birth from the row subscriber', () => {
    const plans = value(mapped(answer([other(payer('Payer'), insured('M1'), { subscriber: { dateOfBirth: '20010203' } })]))).additionalPlanBenefitInfo;
    expect(plans[0]!.subscriber).toEqual({ firstName: 'Ann', lastName: 'Lee', dateOfBirth: '2001-02-03', memberId: 'M1' });
  });

  it('maps benefit dates field by field, planBegin before benefitBegin', () => {
    const dates = {
      periodStart: '20240101',
      periodEnd: '20240630',
      planBegin: '2022-01-01',
      benefitBegin: '2021-06-01',
      benefitEnd: '2025-12-31',
      coordinationOfBenefits: '20240101-20240630',
    };
    const plans = value(mapped(answer([other(payer('Payer'), insured('M1'), { benefitsDateInformation: dates })]))).additionalPlanBenefitInfo;
    expect(plans[0]!.benefitDate).toEqual({
      overlapBeginDate: '2024-01-01',
      overlapEndDate: '2024-06-30',
      planStartDate: '2022-01-01',
      planEndDate: '2025-12-31',
      coordinationOfBenefits: '2024-01-01',
    });
  });

  it('falls back to benefitBegin for planStartDate', () => {
    const plans = value(
      mapped(answer([other(payer('Payer'), insured('M1'), { benefitsDateInformation: { benefitBegin: '2021-06-01' } })])),
    ).additionalPlanBenefitInfo;
    expect(plans[0]!.benefitDate).toEqual({ planStartDate: '2021-06-01' });
  });
});

describe('a 200 answer: caller-named service types', () => {
  it('keeps every code when the caller named only 30 or nothing', () => {
    for (const codes of [undefined, [], ['30']]) {
      const result = value(mapped(twoPlans(), codes));
      expect(result.requestedPlanBenefits[0]!.serviceTypeCodes).toHaveLength(4);
    }
  });

  it('keeps only the named codes in each plan when codes other than 30 were named', () => {
    const result = value(mapped(twoPlans(), ['88', 'MH']));
    expect(result.requestedPlanBenefits[0]!.serviceTypeCodes).toEqual([{ code: '88', name: 'Pharmacy' }]);
    expect(result.additionalPlanBenefitInfo.map((p) => p.serviceTypeCodes)).toEqual([
      [{ code: '88', name: 'Pharmacy' }],
      [{ code: 'MH', name: 'Mental Health' }],
    ]);
  });

  it('keeps 30 too when it is named beside other codes', () => {
    const result = value(mapped(twoPlans(), ['30', 'AL']));
    expect(result.requestedPlanBenefits[0]!.serviceTypeCodes.map((s) => s.code)).toEqual(['30', 'AL']);
  });

  it('does not change dates or plans when filtering', () => {
    const result = value(mapped(twoPlans(), ['UC']));
    expect(result.requestedPlanBenefits[0]).toEqual({ payerName: 'Aetna', serviceTypeCodes: [], benefitDate: { planStartDate: '2024-01-10' } });
    expect(result.additionalPlanBenefitInfo).toHaveLength(2);
  });
});

describe('dates in the answer (planDateInformation.planBegin as the plan start)', () => {
  const planStart = (planBegin: unknown) =>
    value(mapped(answer([{ code: '1', serviceTypeCodes: ['30'] }], { planDateInformation: { planBegin } }))).requestedPlanBenefits[0]!.benefitDate;

  it.each([
    ['20240131', '2024-01-31'],
    ['2024-01-31', '2024-01-31'],
    ['20240101-20241231', '2024-01-01'],
    ['2024-01-01-2024-12-31', '2024-01-01'],
  ])('%s → %s', (input, output) => {
    expect(planStart(input)).toEqual({ planStartDate: output });
  });

  it.each([['20240230'], ['01-31-2024'], ['2024/01/31'], [''], [20240131], [undefined], ['2024013']])('treats %p as missing', (input) => {
    expect(planStart(input)).toEqual({});
  });
});

describe('classifyCobAnswer and cobErrors', () => {
  it('maps a 200 answer without errors', () => {
    expect(value(classify(200, noCob())).cobCode).toBe('MemberFoundNoCOB');
  });

  it('lists each AAA once with the X12 description, follow-up code and loop', () => {
    expect(cobErrors(fixture('aaa-75-subscriber-not-found'))).toEqual([
      { code: '75', description: 'Subscriber/Insured Not Found', followUpAction: 'C: Please Correct and Resubmit', loop: '2100C' },
    ]);
  });

  it('reads nested aaaErrors when the top-level list is empty', () => {
    const body = { errors: [], dependent: { aaaErrors: [{ code: '71', followupAction: 'Please Correct and Resubmit' }] } };
    expect(cobErrors(body)).toEqual([
      {
        code: '71',
        description: 'Patient Birth Date Does Not Match That for the Patient on the Database',
        followUpAction: 'C: Please Correct and Resubmit',
        loop: '2100D',
      },
    ]);
  });

  it('reads a code naming an Object.prototype member as unknown, keeping the description Stedi gave', () => {
    expect(cobErrors({ errors: [{ code: 'constructor', description: 'Odd payer text' }, { code: 'toString' }] })).toEqual([
      { code: 'constructor', description: 'Odd payer text', followUpAction: '', loop: 'unknown' },
      { code: 'toString', description: 'Unknown reject reason', followUpAction: '', loop: 'unknown' },
    ]);
  });

  it('answers 422 PAYER_REJECTED with rejections for a data error on a 400', () => {
    const e = error(classify(400, fixture('aaa-75-subscriber-not-found')));
    expect(e).toMatchObject({ code: 'PAYER_REJECTED', status: 422 });
    expect(e.rejections?.map((r) => r.code)).toEqual(['75']);
  });

  it('answers 503 PAYER_UNAVAILABLE with Retry-After for AAA 42, even on a 200', () => {
    const e = error(classify(200, fixture('aaa-42-unavailable')));
    expect(e).toMatchObject({ code: 'PAYER_UNAVAILABLE', status: 503 });
    expect(e.retryAfterSeconds).toBeGreaterThan(0);
    expect(e.rejections).toEqual([
      { code: '42', description: 'Unable to Respond at Current Time', followUpAction: 'P: Please Resubmit Original Transaction', loop: '2100A' },
    ]);
  });

  it('answers 503 for AAA 80 and 502 for AAA 79 alone', () => {
    expect(error(classify(400, { errors: [{ code: '80' }, { code: '79' }] })).status).toBe(503);
    expect(error(classify(400, { errors: [{ code: '79' }] }))).toMatchObject({ code: 'UPSTREAM_ERROR', status: 502 });
  });

  it('answers 422 when any AAA is a data error, even beside 42', () => {
    expect(error(classify(200, { errors: [{ code: '42' }, { code: '72' }] })).code).toBe('PAYER_REJECTED');
  });

  it('lets AAA errors win over a classification on the same answer', () => {
    const body = { ...noCob(), errors: [{ code: '75' }] };
    expect(error(classify(200, body)).code).toBe('PAYER_REJECTED');
  });

  it('answers 502 for a 400 without AAA errors and for other statuses', () => {
    expect(error(classify(400, { message: 'Validation failed', fieldList: [] })).status).toBe(502);
    expect(error(classify(500, noCob())).status).toBe(502);
  });

  it('decides from the rejections it is given, without reading the answer again', () => {
    const given = cobErrors({ errors: [{ code: '75' }] });
    expect(error(classifyCobAnswer(200, noCob(), given)).code).toBe('PAYER_REJECTED');
    expect(value(classifyCobAnswer(200, { ...noCob(), errors: [{ code: '75' }] }, [])).cobCode).toBe('MemberFoundNoCOB');
  });

  it('answers 502 for an unknown classification on a 200', () => {
    expect(error(classify(200, { coordinationOfBenefits: { classification: 'Maybe' } })).code).toBe('UPSTREAM_ERROR');
  });

  it('keeps patient data out of error messages', () => {
    const e = error(classify(400, fixture('aaa-75-subscriber-not-found')));
    expect(JSON.stringify(e)).not.toMatch(/JOHN|DOE/);
  });
});
