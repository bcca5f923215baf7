import { describe, it, expect } from '@jest/globals';
import { SERVICE_TYPE_CODES, serviceTypeName } from '../../lib/x12/service-type-codes.js';

describe('X12 005010 service type codes', () => {
  it('names well-known codes', () => {
    expect(serviceTypeName('1')).toBe('Medical Care');
    expect(serviceTypeName('2')).toBe('Surgical');
    expect(serviceTypeName('30')).toBe('Health Benefit Plan Coverage');
    expect(serviceTypeName('98')).toBe('Professional (Physician) Visit - Office');
    expect(serviceTypeName('A0')).toBe('Professional (Physician) Visit - Outpatient');
    expect(serviceTypeName('AL')).toBe('Vision (Optometry)');
    expect(serviceTypeName('BZ')).toBe('Physician Visit - Office: Well');
    expect(serviceTypeName('MH')).toBe('Mental Health');
    expect(serviceTypeName('UC')).toBe('Urgent Care');
  });

  it('holds the whole list, numeric and alphanumeric', () => {
    const codes = Object.keys(SERVICE_TYPE_CODES);
    expect(codes.length).toBeGreaterThanOrEqual(150);
    for (const code of [
      'A9',
      'AA',
      'AR',
      'B1',
      'B3',
      'BA',
      'C1',
      'CA',
      'CK',
      'DG',
      'DM',
      'DS',
      'GF',
      'GN',
      'GY',
      'IC',
      'NI',
      'ON',
      'PT',
      'PU',
      'RN',
      'RT',
      'TC',
      'TN',
    ]) {
      expect(serviceTypeName(code)).toEqual(expect.any(String));
    }
    for (const name of Object.values(SERVICE_TYPE_CODES)) expect(name.trim()).not.toBe('');
  });

  it('rejects codes outside the 005010 list, lower case and prototype keys', () => {
    for (const code of ['', '0', '29', '31', '100', 'AP', 'BO', 'ZZ', 'al', ' 30', 'toString', '__proto__']) {
      expect(serviceTypeName(code)).toBeUndefined();
    }
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(SERVICE_TYPE_CODES)).toBe(true);
  });
});
