import { describe, it, expect } from '@jest/globals';
import { validateEnrollment } from '../../lib/enrollment/validate.js';

const org = { providerId: 'P1', clientId: 'acme', npi: '1234567893', organizationName: 'Clinic', status: 'active' };
const person = { providerId: 'P2', clientId: 'acme', npi: '1234567893', firstName: 'Ada', lastName: 'Lovelace', status: 'inactive' };

const fieldsOf = (record: unknown) => {
  const result = validateEnrollment(record);
  if (result.ok) throw new Error('expected a validation failure');
  expect(result.error.code).toBe('INVALID_REQUEST');
  expect(result.error.status).toBe(400);
  return (result.error.errors ?? []).map((e) => e.field).sort();
};

describe('validateEnrollment', () => {
  it('accepts an organization and a person provider, keeping only known fields', () => {
    expect(validateEnrollment(org)).toEqual({ ok: true, value: org });
    expect(validateEnrollment({ ...person, payerIds: ['PAYER1', 'PAYER2'] })).toEqual({
      ok: true,
      value: { ...person, payerIds: ['PAYER1', 'PAYER2'] },
    });
  });

  it('trims names', () => {
    const result = validateEnrollment({ ...org, organizationName: '  Clinic  ' });
    expect(result.ok && result.value.organizationName).toBe('Clinic');
  });

  it('lists every problem at once', () => {
    expect(fieldsOf({ providerId: '', clientId: 'x'.repeat(81), npi: '1234567890', status: 'enabled', organizationName: 'C' })).toEqual([
      'clientId',
      'npi',
      'providerId',
      'status',
    ]);
  });

  it('accepts ids of exactly 80 characters', () => {
    expect(validateEnrollment({ ...org, providerId: 'p'.repeat(80), clientId: 'c'.repeat(80) }).ok).toBe(true);
  });

  it('requires organizationName XOR firstName + lastName', () => {
    expect(fieldsOf({ providerId: 'P', clientId: 'c', npi: '1234567893', status: 'active' })).toEqual(['organizationName']);
    expect(fieldsOf({ ...org, firstName: 'Ada' })).toEqual(['firstName']);
    expect(fieldsOf({ ...org, firstName: 'Ada', lastName: 'L' })).toEqual(['firstName', 'lastName']);
    const { lastName: _dropped, ...onlyFirst } = person;
    expect(fieldsOf(onlyFirst)).toEqual(['lastName']);
    expect(fieldsOf({ ...org, organizationName: '   ' })).toEqual(['organizationName']);
    expect(fieldsOf({ ...org, organizationName: 'x'.repeat(61) })).toEqual(['organizationName']);
  });

  it('checks payerIds: an array of non-empty strings, not empty', () => {
    expect(fieldsOf({ ...org, payerIds: 'PAYER1' })).toEqual(['payerIds']);
    expect(fieldsOf({ ...org, payerIds: [] })).toEqual(['payerIds']);
    expect(fieldsOf({ ...org, payerIds: ['OK', '', 7] })).toEqual(['payerIds[1]', 'payerIds[2]']);
  });

  it('rejects unknown fields and non-objects', () => {
    expect(fieldsOf({ ...org, payerID: ['X'] })).toEqual(['payerID']);
    expect(fieldsOf(null)).toEqual(['']);
    expect(fieldsOf([org])).toEqual(['']);
    expect(fieldsOf('record')).toEqual(['']);
  });

  it('never echoes submitted values in messages', () => {
    const result = validateEnrollment({
      providerId: 'SECRET-PROVIDER-ID-'.padEnd(90, 'x'),
      clientId: 7,
      npi: '9999999999',
      status: 'zzz-status',
      firstName: 'Zelda',
    });
    expect(result.ok).toBe(false);
    const text = JSON.stringify(result);
    for (const value of ['SECRET-PROVIDER', '9999999999', 'zzz-status', 'Zelda']) expect(text).not.toContain(value);
  });
});
