import { describe, expect, it } from '@jest/globals';
import { EXACT } from '../../lib/errors/index.js';
import { mockEligibility } from '../../lib/eligibility/mock.js';
import { MOCK_PATIENTS } from '../../lib/mock/patients.js';

const set = (n: number) => ({ ...MOCK_PATIENTS[n - 1]! });

describe('mock eligibility (docs/api.md#mock-mode)', () => {
  it('set 1 answers the exact in/out figures and nothing else', () => {
    const result = mockEligibility(set(1));
    if (!result.ok) throw new Error('expected success');
    // The body, whole: exactly these keys and figures (the figures behind them are the FHIR edge's).
    expect(result.body).toEqual({
      message: 'Mock Eligibility check successful.',
      inNetwork: {
        individual: { copay: '$20.00', deductible: { total: '$500.00', remaining: '$200.00' }, coinsurance: '10%', stopLoss: '$2,000.00' },
        family: { copay: '$50.00', deductible: { total: '$1,000.00', remaining: '$500.00' }, coinsurance: '20%', stopLoss: '$5,000.00' },
      },
      outNetwork: {
        individual: { copay: '$40.00', deductible: { total: '$1,000.00', remaining: '$800.00' }, coinsurance: '30%', stopLoss: '$4,000.00' },
        family: { copay: '$100.00', deductible: { total: '$2,000.00', remaining: '$1,500.00' }, coinsurance: '40%', stopLoss: '$10,000.00' },
      },
    });
  });

  it('set 2 has N/A copays and the odd family remaining $4,250.50', () => {
    const result = mockEligibility(set(2));
    if (!result.ok) throw new Error('expected success');
    expect(result.body.inNetwork.individual).toEqual({
      copay: 'N/A',
      deductible: { total: '$3,000.00', remaining: '$3,000.00' },
      coinsurance: '0%',
      stopLoss: '$6,000.00',
    });
    expect(result.body.inNetwork.family).toEqual({
      copay: 'N/A',
      deductible: { total: '$6,000.00', remaining: '$4,250.50' },
      coinsurance: '0%',
      stopLoss: '$12,000.00',
    });
    expect(result.body.outNetwork.individual).toEqual({
      copay: 'N/A',
      deductible: { total: '$6,000.00', remaining: '$6,000.00' },
      coinsurance: '40%',
      stopLoss: '$12,000.00',
    });
    expect(result.body.outNetwork.family).toEqual({
      copay: 'N/A',
      deductible: { total: '$12,000.00', remaining: '$12,000.00' },
      coinsurance: '40%',
      stopLoss: '$24,000.00',
    });
  });

  it('set 3 has in-network figures and every out-of-network figure N/A', () => {
    const result = mockEligibility(set(3));
    if (!result.ok) throw new Error('expected success');
    expect(result.body.inNetwork.individual).toEqual({
      copay: '$25.00',
      deductible: { total: '$250.00', remaining: '$0.00' },
      coinsurance: '20%',
      stopLoss: '$3,500.00',
    });
    expect(result.body.inNetwork.family).toEqual({
      copay: '$25.00',
      deductible: { total: '$750.00', remaining: '$310.00' },
      coinsurance: '20%',
      stopLoss: '$7,000.00',
    });
    const na = { copay: 'N/A', deductible: { total: 'N/A', remaining: 'N/A' }, coinsurance: 'N/A', stopLoss: 'N/A' };
    expect(result.body.outNetwork).toEqual({ individual: na, family: na });
  });

  it('set 4 is the 502 error scenario with its exact body', () => {
    expect(mockEligibility(set(4))).toEqual({ ok: false, error: { status: 502, body: { message: 'Mock: Error retrieving eligibility data.' } } });
  });

  it.each([
    ['patientFirstName', 'john'],
    ['patientLastName', 'DOE'],
    ['patientDOB', '01-02-1980'],
    ['patientMemberId', '123456780'],
    ['dateOfCoverage', '01-02-2025'],
    ['payerId', 'payer001'],
    ['providerId', 'PROVIDER002'],
  ])('matches exactly and case-sensitively: %s=%s is "Mock request not found"', (field, value) => {
    expect(mockEligibility({ ...set(1), [field]: value })).toEqual({ ok: false, error: EXACT.MOCK_NOT_FOUND });
  });

  it('a mix of two sets matches neither', () => {
    expect(mockEligibility({ ...set(1), payerId: 'PAYER002' })).toEqual({ ok: false, error: EXACT.MOCK_NOT_FOUND });
  });

  it('runCobCheck adds the fixed cob for sets 1-3', () => {
    const codes = [1, 2, 3].map((n) => {
      const result = mockEligibility({ ...set(n), runCobCheck: true });
      if (!result.ok) throw new Error('expected success');
      return result.body.cob;
    });
    expect(codes.map((cob) => cob?.cobCode)).toEqual(['MemberFoundNoCOB', 'CobInstanceExistsPrimacyDetermined', 'CobInstanceExistsPrimacyUndetermined']);
    expect(codes[0]?.additionalPlanBenefitInfo).toEqual([]);
    expect(codes[1]?.additionalPlanBenefitInfo.map((plan) => plan.payerPrimacy)).toEqual(['SecondaryPayer']);
    expect(codes[2]?.additionalPlanBenefitInfo.map((plan) => plan.payerPrimacy)).toEqual(['Undetermined']);
  });

  it('without runCobCheck there is no cob key at all', () => {
    const result = mockEligibility({ ...set(1), runCobCheck: false });
    expect(result.ok && Object.keys(result.body).sort()).toEqual(['inNetwork', 'message', 'outNetwork']);
  });

  it('set 4 with runCobCheck is still the eligibility error', () => {
    expect(mockEligibility({ ...set(4), runCobCheck: true })).toEqual({ ok: false, error: EXACT.MOCK_ELIGIBILITY_ERROR });
  });
});
