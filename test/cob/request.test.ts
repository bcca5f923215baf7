import { describe, it, expect } from '@jest/globals';
import { buildCobRequest, isMedicarePayer, type CobQuery } from '../../lib/cob/request.js';
import { ServiceFailure } from '../../lib/errors/index.js';

const org = { npi: '1999999984', organizationName: 'ACME Health Services' };
const base: CobQuery = {
  patientFirstName: 'John',
  patientLastName: 'Doe',
  dateOfCoverage: '08-02-2024',
  payerId: '60054',
};

describe('buildCobRequest', () => {
  it('builds the minimal Stedi body with ISO dates and service type 30', () => {
    expect(buildCobRequest(base, org, { controlNumber: '123456789' })).toEqual({
      controlNumber: '123456789',
      tradingPartnerServiceId: '60054',
      provider: { npi: '1999999984', organizationName: 'ACME Health Services' },
      subscriber: { firstName: 'John', lastName: 'Doe' },
      encounter: { dateOfService: '2024-08-02', serviceTypeCode: '30' },
    });
  });

  it('sends 30 even when the caller named narrower service types', () => {
    const body = buildCobRequest({ ...base, serviceTypeCodes: ['98', 'MH'] }, org);
    expect(body.encounter.serviceTypeCode).toBe('30');
    expect(body.encounter).toEqual({ dateOfService: '2024-08-02', serviceTypeCode: '30' });
    expect(JSON.stringify(body)).not.toContain('MH');
  });

  it('maps DOB, member id and SSN (dashes removed) to the subscriber', () => {
    const body = buildCobRequest(
      { ...base, patientDOB: '05-27-1985', patientMemberId: 'W000000000', patientSSN: '123-45-6789' },
      org,
    );
    expect(body.subscriber).toEqual({
      firstName: 'John',
      lastName: 'Doe',
      dateOfBirth: '1985-05-27',
      memberId: 'W000000000',
      ssn: '123456789',
    });
  });

  it('puts the dependent fields in dependent, with an ISO date of birth', () => {
    const body = buildCobRequest(
      { ...base, dependentFirstName: 'Jordan', dependentLastName: 'Doe', dependentDOB: '12-31-2002' },
      org,
    );
    expect(body.dependent).toEqual({ firstName: 'Jordan', lastName: 'Doe', dateOfBirth: '2002-12-31' });
  });

  it('leaves out absent and blank optional values instead of sending them empty', () => {
    const body = buildCobRequest({ ...base, patientMemberId: '  ', dependentFirstName: '' }, org);
    expect(body.subscriber).not.toHaveProperty('memberId');
    expect(body).not.toHaveProperty('dependent');
    expect(JSON.stringify(body)).not.toMatch(/null|""/);
  });

  it('names a person provider by first and last name, an organization by its name', () => {
    const person = buildCobRequest(base, { npi: '1999999984', firstName: 'Ada', lastName: 'Lovelace' });
    expect(person.provider).toEqual({ npi: '1999999984', firstName: 'Ada', lastName: 'Lovelace' });
    const both = buildCobRequest(base, { ...org, firstName: 'Ada', lastName: 'Lovelace' });
    expect(both.provider).toEqual({ npi: '1999999984', organizationName: 'ACME Health Services' });
  });

  it('generates a 9-digit control number that differs between requests', () => {
    const numbers = new Set(Array.from({ length: 20 }, () => buildCobRequest(base, org).controlNumber));
    for (const n of numbers) expect(n).toMatch(/^\d{9}$/);
    expect(numbers.size).toBeGreaterThan(1);
  });

  it('refuses an unvalidated date instead of sending it', () => {
    expect(() => buildCobRequest({ ...base, dateOfCoverage: '2024-08-02' }, org)).toThrow(ServiceFailure);
  });
});

describe('isMedicarePayer', () => {
  it('recognises Stedi Medicare payer ids, case-insensitively', () => {
    for (const id of ['CMS', 'cms', ' MEDICARE ', 'JDNSN', 'CMSMED', 'MAPMC', 'Z1073', 'MBILU', 'MBILUNOSSN']) {
      expect(isMedicarePayer(id)).toBe(true);
    }
  });

  it('does not flag commercial payers', () => {
    for (const id of ['60054', '87726', '62308', '00540', 'CMSP1', 'CMSEB', 'PAYER001']) {
      expect(isMedicarePayer(id)).toBe(false);
    }
  });
});
