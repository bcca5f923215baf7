import { describe, it, expect } from '@jest/globals';
import { COB_SANDBOX_PATIENTS, cobSandboxAnswer, type CobSandboxPatient } from '../../infra/dev/sandbox/cob-answers.js';
import { SANDBOX_PATIENTS } from '../../infra/dev/sandbox/patients.js';
import { cobErrors } from '../../lib/cob/aaa.js';
import { classifyCobAnswer } from '../../lib/cob/map.js';
import { buildCobRequest } from '../../lib/cob/request.js';
import { COB_CODES } from '../../lib/cob/types.js';

/** classifyCobAnswer as lib/cob/check.ts calls it: with the reply's AAA errors, read once. */
const classify = (status: number, body: unknown, codes?: string[]) => classifyCobAnswer(status, body, cobErrors(body), codes);

const provider = { npi: '1234567893', organizationName: 'Sandbox Family Clinic' };

function requestFor(p: CobSandboxPatient, overrides: Partial<Parameters<typeof buildCobRequest>[0]> = {}) {
  return buildCobRequest(
    {
      patientFirstName: p.firstName,
      patientLastName: p.lastName,
      patientDOB: p.dateOfBirth,
      patientMemberId: p.memberId,
      dateOfCoverage: '06-01-2025',
      payerId: p.payerId,
      ...(p.dependent ? { dependentFirstName: p.dependent.firstName, dependentLastName: p.dependent.lastName, dependentDOB: p.dependent.dateOfBirth } : {}),
      ...overrides,
    },
    provider,
    { controlNumber: '000000001' },
  );
}

describe('COB sandbox patients', () => {
  it('cover every COB code, two other plans, a dependent and AAA errors', () => {
    const codes = new Set(COB_SANDBOX_PATIENTS.flatMap((p) => ('cobCode' in p.expected ? [p.expected.cobCode] : [])));
    expect([...codes].sort()).toEqual([...COB_CODES].sort());
    expect(COB_SANDBOX_PATIENTS.some((p) => p.dependent)).toBe(true);
    expect(COB_SANDBOX_PATIENTS.some((p) => 'scenario' in p.answer && p.answer.scenario.otherPlans.length >= 2)).toBe(true);
    expect(COB_SANDBOX_PATIENTS.some((p) => 'aaa' in p.expected && p.expected.aaa === '75')).toBe(true);
  });

  it('have distinct identities', () => {
    const keys = COB_SANDBOX_PATIENTS.map((p) => `${p.lastName}|${p.firstName}|${p.memberId}`.toLowerCase());
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(COB_SANDBOX_PATIENTS.map((p) => [`${p.firstName} ${p.lastName}`, p] as const))('%s maps to the documented outcome', (_name, patient) => {
    const { status, body } = cobSandboxAnswer(requestFor(patient));
    const result = classify(status, JSON.parse(JSON.stringify(body)));
    if ('cobCode' in patient.expected) {
      expect(status).toBe(200);
      expect(result.ok && result.value.cobCode).toBe(patient.expected.cobCode);
    } else {
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe(patient.expected.error);
        expect(result.error.rejections?.map((r) => r.code)).toEqual([patient.expected.aaa]);
      }
    }
  });
});

describe('COB sandbox other plans', () => {
  it.each(COB_SANDBOX_PATIENTS.map((p) => [`${p.firstName} ${p.lastName}`, p] as const))(
    "%s: every other plan's subscriber is of the same family (same last name), never another patient's",
    (_name, patient) => {
      const { body } = cobSandboxAnswer(requestFor(patient));
      const result = classify(200, JSON.parse(JSON.stringify(body)));
      if (!result.ok) return;
      for (const plan of result.value.additionalPlanBenefitInfo) {
        expect(plan.subscriber.lastName?.toLowerCase()).toBe(patient.lastName.toLowerCase());
      }
    },
  );

  it('David Chen (the eligibility HMO patient) has his own secondary plan', () => {
    const chen = COB_SANDBOX_PATIENTS.find((p) => p.memberId === 'HMO200002')!;
    const result = classify(200, JSON.parse(JSON.stringify(cobSandboxAnswer(requestFor(chen)).body)));
    expect(result.ok && result.value.additionalPlanBenefitInfo.map((p) => [p.payerPrimacy, p.subscriber])).toEqual([
      ['SecondaryPayer', { firstName: 'DAVID', lastName: 'CHEN', memberId: 'W200002078', dateOfBirth: '1978-09-30' }],
    ]);
  });
});

describe('cobSandboxAnswer', () => {
  const williams = COB_SANDBOX_PATIENTS.find((p) => p.lastName === 'Williams')!;
  const brown = COB_SANDBOX_PATIENTS.find((p) => p.dependent)!;

  it('matches names case-insensitively', () => {
    const { status } = cobSandboxAnswer(requestFor(williams, { patientFirstName: 'NOAH', patientLastName: 'williams' }));
    expect(status).toBe(200);
  });

  it('answers an unknown patient, or a wrong member id, with AAA 75 on HTTP 400', () => {
    for (const request of [
      requestFor(williams, { patientMemberId: 'SBX600007' }),
      requestFor(williams, { patientFirstName: 'Noel' }),
      requestFor({ ...williams, memberId: '' }, { patientMemberId: undefined, patientSSN: '123456789' }),
    ]) {
      const { status, body } = cobSandboxAnswer(request);
      expect(status).toBe(400);
      const result = classify(status, body);
      expect(!result.ok && result.error.code).toBe('PAYER_REJECTED');
      expect(!result.ok && result.error.rejections?.[0]).toMatchObject({ code: '75', loop: '2100C' });
    }
  });

  it('returns the two other plans of the two-plan patient with their primacy', () => {
    const { status, body } = cobSandboxAnswer(requestFor(williams));
    const result = classify(status, body);
    if (!result.ok) throw new Error(result.error.code);
    expect(result.value.additionalPlanBenefitInfo.map((p) => [p.payerName, p.payerPrimacy, p.subscriber.memberId])).toEqual([
      ['AETNA', 'PrimaryPayer', 'W600006061'],
      ['BLUE CROSS BLUE SHIELD OF TEXAS', 'TertiaryPayer', 'XOJ600006062'],
    ]);
    expect(result.value.additionalPlanBenefitInfo[0]!.benefitDate).toEqual({
      overlapBeginDate: '2025-01-01',
      overlapEndDate: '2025-12-31',
      planStartDate: '2022-01-01',
      planEndDate: '2025-12-31',
      coordinationOfBenefits: '2025-01-01',
    });
    // No planDateInformation: the plan start is the earliest benefitBegin of the active rows.
    expect(result.value.requestedPlanBenefits[0]!.benefitDate).toEqual({ planStartDate: '2024-01-01' });
  });

  it('echoes the dependent and the payer id, in Stedi shape', () => {
    const { body } = cobSandboxAnswer(requestFor(brown)) as { body: Record<string, any> };
    expect(body.dependent).toMatchObject({ firstName: 'EMMA', lastName: 'BROWN', dateOfBirth: '2015-06-30', relationToSubscriberCode: '19' });
    expect(body.payer).toEqual({ name: 'SANDBOX HEALTH PLAN', payerIdentification: brown.payerId });
    expect(body.benefitsInformation.every((r: any) => r.subscriber.dateOfBirth)).toBe(true);
    expect(body.benefitsInformation.filter((r: any) => r.code === '1')[0].subscriber.dateOfBirth).toBe('2015-06-30');
  });

  it('uses the dependent fields: the dependent named matches, another name or birth date does not, and the subscriber alone has no other coverage', () => {
    const codeOf = (request: ReturnType<typeof requestFor>) => {
      const { status, body } = cobSandboxAnswer(request);
      const result = classify(status, JSON.parse(JSON.stringify(body)));
      return result.ok ? result.value.cobCode : result.error.rejections?.[0]?.code;
    };
    expect(codeOf(requestFor(brown))).toBe('CobInstanceExistsPrimacyDetermined');
    expect(codeOf(requestFor(brown, { dependentFirstName: 'EMMA', dependentLastName: 'brown' }))).toBe('CobInstanceExistsPrimacyDetermined');
    expect(codeOf(requestFor(brown, { dependentFirstName: 'Ella' }))).toBe('75');
    expect(codeOf(requestFor(brown, { dependentDOB: '06-30-2016' }))).toBe('75');
    const alone = requestFor(brown, { dependentFirstName: undefined, dependentLastName: undefined, dependentDOB: undefined });
    expect(alone.dependent).toBeUndefined();
    expect(codeOf(alone)).toBe('MemberFoundNoCOB');
    expect((cobSandboxAnswer(alone).body as Record<string, unknown>).dependent).toBeUndefined();
  });

  it('knows every eligibility sandbox patient a COB call reaches, as runCobCheck asks (the patient as subscriber, no dependent fields)', () => {
    const reached = SANDBOX_PATIENTS.filter((p) => !p.fault || !['http-429', 'http-500', 'slow', 'malformed-json'].includes(p.fault));
    expect(reached.length).toBeGreaterThanOrEqual(15);
    for (const p of reached) {
      const request = buildCobRequest(
        {
          patientFirstName: p.firstName,
          patientLastName: p.lastName,
          patientDOB: p.dob,
          patientMemberId: p.memberId,
          dateOfCoverage: '03-01-2025',
          payerId: p.payerId,
        },
        provider,
        { controlNumber: '000000002' },
      );
      const { status, body } = cobSandboxAnswer(request);
      const result = classify(status, JSON.parse(JSON.stringify(body)));
      // Found: a COB code, or the patient's own rejection (Medicare, which Stedi's COB check does not cover, is AAA 75).
      const expected = p.aaa?.code ?? (p.payerId === 'CMS' ? '75' : undefined);
      const outcome = result.ok ? 'found' : result.error.rejections?.[0]?.code;
      expect([p.memberId, outcome]).toEqual([p.memberId, expected ?? 'found']);
    }
    // The dependent Lily Patel, asked about as the patient: the answer names her as the dependent.
    const lily = SANDBOX_PATIENTS.find((p) => p.subscriber)!;
    const { body } = cobSandboxAnswer(
      buildCobRequest(
        {
          patientFirstName: lily.firstName,
          patientLastName: lily.lastName,
          patientMemberId: lily.memberId,
          dateOfCoverage: '03-01-2025',
          payerId: lily.payerId,
        },
        provider,
      ),
    ) as { body: Record<string, any> };
    expect(body.dependent).toMatchObject({ firstName: lily.firstName.toUpperCase(), lastName: lily.lastName.toUpperCase() });
    expect(body.subscriber).toMatchObject({ firstName: lily.subscriber!.firstName.toUpperCase(), memberId: lily.memberId });
  });

  it('narrows service types for a caller who asked for other codes', () => {
    const { status, body } = cobSandboxAnswer(requestFor(williams));
    const result = classify(status, body, ['88']);
    if (!result.ok) throw new Error(result.error.code);
    expect(result.value.requestedPlanBenefits[0]!.serviceTypeCodes).toEqual([{ code: '88', name: 'Pharmacy' }]);
    expect(result.value.additionalPlanBenefitInfo.map((p) => p.serviceTypeCodes)).toEqual([[{ code: '88', name: 'Pharmacy' }], []]);
  });

  it('survives a malformed request body', () => {
    const { status } = cobSandboxAnswer({} as never);
    expect(status).toBe(400);
  });
});
