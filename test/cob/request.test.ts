import { describe, it, expect } from '@jest/globals';
import { buildCobRequest, isMedicarePayer, type CobQuery } from '../../lib/cob/request.js';
import { ServiceFailure } from '../../lib/errors/index.js';
import { build270 } from '../../lib/x12/build270.js';

const org = { npi: '1999999984', organizationName: 'ACME Health Services' };
const base: CobQuery = {
  patientFirstName: 'John',
  patientLastName: 'Doe',
  dateOfCoverage: '08-02-2024',
  payerId: '60054',
};

describe('buildCobRequest', () => {
  it('carries the same cleaned names and ids as the 270: delimiters and control characters become spaces', () => {
    const query: CobQuery = {
      ...base,
      patientFirstName: ' Jo*hn\t ',
      patientLastName: "O'Brien~Smith",
      patientMemberId: 'W12:34^5',
      payerId: '600*54',
      patientDOB: '05-27-1985',
    };
    const cob = buildCobRequest(query, { ...org, npi: '1999999984~' });
    expect(cob.subscriber).toMatchObject({ firstName: 'Jo hn', lastName: "O'Brien Smith", memberId: 'W12 34 5' });
    expect(cob.tradingPartnerServiceId).toBe('600 54');
    expect(cob.provider.npi).toBe('1999999984');

    const x12 = build270({
      payerId: query.payerId,
      provider: { npi: '1999999984~', organizationName: org.organizationName },
      subscriber: { firstName: query.patientFirstName, lastName: query.patientLastName, memberId: query.patientMemberId!, dateOfBirth: '19850527' },
      dateOfCoverage: '20240802',
    }).x12;
    const nm1 = x12
      .split('~')
      .find((segment) => segment.startsWith('NM1*IL'))!
      .split('*');
    expect([nm1[3], nm1[4], nm1[9]]).toEqual([cob.subscriber.lastName.toUpperCase(), cob.subscriber.firstName.toUpperCase(), cob.subscriber.memberId]);
    expect(x12).toContain(`*PI*${cob.tradingPartnerServiceId}~`);
    expect(x12).toContain(`*XX*${cob.provider.npi}~`);
  });

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
    const body = buildCobRequest({ ...base, patientDOB: '05-27-1985', patientMemberId: 'W000000000', patientSSN: '123-45-6789' }, org);
    expect(body.subscriber).toEqual({
      firstName: 'John',
      lastName: 'Doe',
      dateOfBirth: '1985-05-27',
      memberId: 'W000000000',
      ssn: '123456789',
    });
  });

  it('puts the dependent fields in dependent, with an ISO date of birth', () => {
    const body = buildCobRequest({ ...base, dependentFirstName: 'Jordan', dependentLastName: 'Doe', dependentDOB: '12-31-2002' }, org);
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
