import { describe, expect, it } from '@jest/globals';
import { mockCob } from '../../lib/cob/mock.js';
import { COB_CODES } from '../../lib/cob/types.js';
import { MOCK_PATIENTS } from '../../lib/mock/patients.js';

const required = (n: number) => {
  const { patientFirstName, patientLastName, dateOfCoverage, payerId, providerId } = MOCK_PATIENTS[n - 1]!;
  return { patientFirstName, patientLastName, dateOfCoverage, payerId, providerId };
};

describe('mock COB (docs/api.md#mock-mode)', () => {
  it('matches on the COB required fields alone', () => {
    const result = mockCob(required(2));
    expect(result.ok && result.body.cobCode).toBe('CobInstanceExistsPrimacyDetermined');
  });

  it('also checks date of birth and member id when given', () => {
    expect(mockCob({ ...required(1), patientDOB: '01-01-1980', patientMemberId: '123456789' }).ok).toBe(true);
    expect(mockCob({ ...required(1), patientMemberId: '987654321' })).toEqual({
      ok: false,
      error: { status: 500, body: { message: 'Mock request not found' } },
    });
  });

  it('set 4 is the COB error body', () => {
    expect(mockCob(required(4))).toEqual({ ok: false, error: { status: 502, body: { message: 'Mock: Error retrieving coordination of benefits data.' } } });
  });

  it('answers use only spec COB codes and ISO dates, and are fresh copies', () => {
    for (const n of [1, 2, 3]) {
      const result = mockCob(required(n));
      if (!result.ok) throw new Error('expected success');
      expect(COB_CODES).toContain(result.body.cobCode);
      const dates = JSON.stringify(result.body).match(/"\d{4}-\d{2}-\d{2}"/g) ?? [];
      expect(dates.length).toBeGreaterThan(0);
      result.body.additionalPlanBenefitInfo.push({} as never);
    }
    const again = mockCob(required(1));
    expect(again.ok && again.body.additionalPlanBenefitInfo).toEqual([]);
  });
});
