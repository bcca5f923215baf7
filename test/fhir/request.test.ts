import { describe, expect, it } from '@jest/globals';
import type { Bundle } from '@medplum/fhirtypes';
import { locateProblems, readEligibilityBundle } from '../../lib/fhir/request.js';
import { validateBody } from '../../lib/validation/index.js';
import { requestBundle } from '../../infra/tools/openapi/fhir.js';
import { SANDBOX_GARCIA } from '../support/events.js';

/** The Bundle → eligibility body mapping (docs/fhir.md#the-request), one field at a time. */

type Json = Record<string, any>;
const garcia = { ...SANDBOX_GARCIA, serviceTypeCodes: ['30', '98'], procedureCodes: ['99213', 'D0120'] };
const bundle = (): Json => requestBundle(garcia) as unknown as Json;
const resource = (b: Json, index: number): Json => b.entry[index].resource;
const read = (b: Json) => readEligibilityBundle(b);
const bodyOf = (b: Json) => {
  const mapped = read(b);
  if (!mapped.ok) throw new Error(JSON.stringify(mapped.error.errors));
  return mapped.value.body;
};
const problemsOf = (b: Json) => {
  const mapped = read(b);
  return mapped.ok ? [] : (mapped.error.errors ?? []);
};

describe('field mappings', () => {
  it('maps the example Bundle back to exactly the body it was built from', () => {
    expect(bodyOf(bundle())).toEqual(garcia);
    expect(validateBody('eligibility', bodyOf(bundle())).ok).toBe(true);
  });

  it('Patient.name → patientFirstName / patientLastName: the official name first, else usual, else the first', () => {
    const b = bundle();
    resource(b, 1).name = [
      { use: 'nickname', family: 'G', given: ['Mia'] },
      { use: 'official', family: 'Garcia', given: ['Maria', 'Elena'] },
    ];
    expect(bodyOf(b)).toMatchObject({ patientFirstName: 'Maria', patientLastName: 'Garcia' });
    resource(b, 1).name = [
      { family: 'Garcia-Lopez', given: ['Maria'] },
      { use: 'old', family: 'X', given: ['Y'] },
    ];
    expect(bodyOf(b)).toMatchObject({ patientFirstName: 'Maria', patientLastName: 'Garcia-Lopez' });
  });

  it('Patient.birthDate → patientDOB, and servicedDate (or servicedPeriod.start) → dateOfCoverage, YYYY-MM-DD to MM-DD-YYYY', () => {
    const b = bundle();
    expect(bodyOf(b)).toMatchObject({ patientDOB: '04-12-1985', dateOfCoverage: '03-01-2025' });
    delete resource(b, 0).servicedDate;
    resource(b, 0).servicedPeriod = { start: '2025-02-14T09:30:00-05:00', end: '2025-02-14' };
    expect(bodyOf(b).dateOfCoverage).toBe('02-14-2025');
  });

  it('Coverage.subscriberId → patientMemberId, from the focal insurance', () => {
    const b = bundle();
    b.entry.push({
      resource: {
        resourceType: 'Coverage',
        id: 'cov-2',
        status: 'active',
        subscriberId: 'OTHER-1',
        beneficiary: { reference: 'Patient/pat-1' },
        payor: [{ reference: 'Organization/payer-1' }],
      },
    });
    resource(b, 0).insurance = [{ coverage: { reference: 'Coverage/cov-1' } }, { focal: true, coverage: { reference: 'Coverage/cov-2' } }];
    expect(bodyOf(b).patientMemberId).toBe('OTHER-1');
  });

  it('insurer Organization.identifier → payerId, by entry or as a logical reference', () => {
    const b = bundle();
    resource(b, 3).identifier = [{ system: 'http://example.org/no-value' }, { system: 'http://example.org/payers', value: 'SBXHMO' }];
    expect(bodyOf(b).payerId).toBe('SBXHMO');
    resource(b, 0).insurer = { identifier: { system: 'http://example.org/payers', value: 'CMS' } };
    expect(bodyOf(b).payerId).toBe('CMS');
  });

  it('provider identifier → providerId (Organization, Practitioner or PractitionerRole)', () => {
    const b = bundle();
    b.entry[4] = { fullUrl: 'urn:uuid:p', resource: { resourceType: 'Practitioner', identifier: [{ value: 'PROVIDER-SANDBOX-2' }] } };
    resource(b, 0).provider = { reference: 'urn:uuid:p' };
    expect(bodyOf(b).providerId).toBe('PROVIDER-SANDBOX-2');
  });

  it('item.category (X12 1365) → serviceTypeCodes and item.productOrService → procedureCodes, duplicates merged, order kept', () => {
    const b = bundle();
    resource(b, 0).item.push({
      category: {
        coding: [
          { system: 'http://example.org/local', code: 'x' },
          { system: 'https://codesystem.x12.org/005010/1365', code: '98' },
        ],
      },
    });
    expect(bodyOf(b)).toMatchObject({ serviceTypeCodes: ['30', '98'], procedureCodes: ['99213', 'D0120'] });
    delete resource(b, 0).item;
    expect(bodyOf(b)).not.toHaveProperty('serviceTypeCodes');
  });

  it('references resolve by fullUrl, by Type/id and by an absolute URL ending in Type/id', () => {
    const b = bundle();
    resource(b, 0).patient = { reference: 'urn:uuid:00000000-0000-4000-8000-000000000002' };
    resource(b, 0).insurance[0].coverage = { reference: 'https://ehr.example.org/fhir/R4/Coverage/cov-1/_history/3' };
    expect(bodyOf(b)).toMatchObject({ patientLastName: 'Garcia', patientMemberId: 'PPO100001' });
  });

  it('keeps what the answer refers back to, reduced to plain strings', () => {
    const b = bundle();
    resource(b, 0).patient = { reference: 'Patient/pat-1', display: 'Maria', extension: [{ url: 'x' }] };
    const mapped = read(b);
    expect(mapped.ok && mapped.value.context).toEqual({
      request: { reference: 'urn:uuid:00000000-0000-4000-8000-000000000001' },
      patient: { reference: 'Patient/pat-1', display: 'Maria' },
      insurer: { reference: 'Organization/payer-1' },
      provider: { reference: 'Organization/provider-1' },
      coverage: { reference: 'Coverage/cov-1' },
      purpose: ['benefits', 'validation'],
      procedures: {
        '99213': { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code: '99213' }] },
        D0120: { coding: [{ system: 'http://www.ada.org/cdt', code: 'D0120' }] },
      },
    });
  });
});

describe('what cannot be mapped', () => {
  it('the CoverageEligibilityRequest may be any entry, but there must be one', () => {
    const b = bundle();
    b.entry.reverse();
    expect(bodyOf(b)).toEqual(garcia);
    b.entry.pop();
    expect(problemsOf(b)).toEqual([{ field: 'Bundle.entry', message: 'must hold a CoverageEligibilityRequest (the request to check) in one of its entries' }]);
  });

  it('lists every problem at once, each at its FHIR element', () => {
    const b = bundle();
    resource(b, 0).purpose = ['discovery'];
    resource(b, 0).patient = { reference: 'Patient/nobody' };
    resource(b, 0).insurer = { reference: 'Coverage/cov-1' };
    resource(b, 0).servicedDate = '2025-02';
    resource(b, 0).item = [{ category: { text: 'office visits' } }, { quantity: { value: 1 } }];
    delete resource(b, 0).insurance;
    expect(problemsOf(b)).toEqual([
      { field: 'Bundle.entry[0].resource.purpose', message: 'must include benefits or validation' },
      {
        field: 'Bundle.entry[0].resource.patient.reference',
        message: 'must point at an entry of the Bundle (by fullUrl or Type/id) or a contained resource (#id); nothing matches "Patient/nobody"',
      },
      { field: 'Bundle.entry[0].resource.insurance', message: 'is required: the Coverage to check (its subscriberId is the member id)' },
      { field: 'Bundle.entry[0].resource.insurer.reference', message: 'must point at a resource of type Organization' },
      { field: 'Bundle.entry[0].resource.servicedDate', message: 'must be a full date in the form YYYY-MM-DD that exists on the calendar' },
      {
        field: 'Bundle.entry[0].resource.item[0].category',
        message: 'must have a coding from https://codesystem.x12.org/005010/1365 or https://x12.org/codes/service-type-codes (X12 service type codes)',
      },
      { field: 'Bundle.entry[0].resource.item[1]', message: 'must have a category (an X12 service type) or a productOrService (a CPT, HCPCS or CDT code)' },
    ]);
  });

  it('more than 40 items are refused on the count, before any is read', () => {
    const b = bundle();
    resource(b, 0).item = Array.from({ length: 100_000 }, (_, i) => ({
      category: { coding: [{ system: 'https://codesystem.x12.org/005010/1365', code: String(i) }] },
    }));
    expect(problemsOf(b)).toEqual([
      {
        field: 'Bundle.entry[0].resource.item',
        message: 'must list at most 40 items (each names one service type and/or one procedure; at most 10 of each are checked)',
      },
    ]);
    resource(b, 0).item = resource(b, 0)
      .item.slice(0, 40)
      .map(() => ({ category: { coding: [{ system: 'https://codesystem.x12.org/005010/1365', code: '98' }] } }));
    expect(bodyOf(b).serviceTypeCodes).toEqual(['98']);
  });

  it('dates must be full and real: partial, impossible and malformed dates are refused', () => {
    /** The Patient's birthDate as read: its MM-DD-YYYY form, or the problem named on it. */
    const birthDate = (value: string) => {
      const b = bundle();
      resource(b, 1).birthDate = value;
      const mapped = read(b);
      return mapped.ok ? mapped.value.body.patientDOB : mapped.error.errors?.map((problem) => problem.message).join('; ');
    };
    expect([birthDate('1985-04-12'), birthDate('2025-02-14T09:30:00Z')]).toEqual(['04-12-1985', '02-14-2025']);
    expect(['1985', '1985-04', '2025-02-30', '12-04-1985', '2025-02-14x'].map(birthDate)).toEqual(
      Array(5).fill('must be a full date in the form YYYY-MM-DD that exists on the calendar'),
    );
  });
});

describe('the eligibility rules, located in the Bundle', () => {
  it('reports the eligibility schema problems at the element the value came from, dates in FHIR form', () => {
    const b = bundle();
    resource(b, 1).name = [{ family: 'Garcia' }];
    resource(b, 1).birthDate = '2999-01-01';
    resource(b, 2).subscriberId = 'x'.repeat(81);
    resource(b, 0).item[1] = { category: { coding: [{ system: 'https://codesystem.x12.org/005010/1365', code: 'ZZ' }] } };
    const mapped = read(b);
    if (!mapped.ok) throw new Error('the mapping itself should succeed');
    const valid = validateBody('eligibility', mapped.value.body);
    expect(valid.ok).toBe(false);
    const located = locateProblems(valid.ok ? [] : (valid.error.errors ?? []), mapped.value.sources);
    expect(located).toEqual([
      { field: 'Bundle.entry[1].resource.name[0].given[0]', message: 'is required' },
      { field: 'Bundle.entry[1].resource.birthDate', message: 'must be a real calendar date in the form YYYY-MM-DD, not in the future' },
      { field: 'Bundle.entry[2].resource.subscriberId', message: 'must be at most 80 characters long (spaces count)' },
      { field: 'Bundle.entry[0].resource.item[1].category.coding[0].code', message: 'must be an X12 005010 service type code' },
    ]);
  });

  it('a field without a recorded source falls back to the Bundle', () => {
    expect(locateProblems([{ field: 'somethingElse', message: 'is not an allowed field' }], {})).toEqual([
      { field: 'Bundle', message: 'is not an allowed field' },
    ]);
  });
});

// The example builder is what docs and the OpenAPI document show: it must stay a valid Bundle shape.
it('requestBundle builds a collection whose first entry is the request', () => {
  const b: Bundle = requestBundle(garcia);
  expect([b.type, b.entry?.[0]?.resource?.resourceType, b.entry?.length]).toEqual(['collection', 'CoverageEligibilityRequest', 5]);
});
