import { beforeAll, describe, expect, it } from '@jest/globals';
import { EXACT, serviceError } from '../../lib/errors/index.js';
import { SYSTEMS } from '../../lib/fhir/codes.js';
import { fhirHttpResponse, operationOutcomeOf } from '../../lib/fhir/outcome.js';
import { errorResponse, jsonResponse } from '../../lib/http/response.js';
import { loadR4Definitions, R4_LOAD_TIMEOUT_MS, r4Errors } from '../support/fhir-r4.js';

/** Our errors → OperationOutcome (docs/fhir.md#errors), and the HTTP answer of the FHIR route. */

beforeAll(() => loadR4Definitions(), R4_LOAD_TIMEOUT_MS);

describe('operationOutcomeOf', () => {
  it('one issue per field problem, located by its expression, our code in details', () => {
    const error = serviceError('INVALID_REQUEST', {
      errors: [
        { field: 'Bundle.entry[1].resource.birthDate', message: 'must be a full date in the form YYYY-MM-DD that exists on the calendar' },
        { field: 'resourceType', message: 'must be "Bundle"' },
        { field: 'entry', message: 'is required' },
      ],
    });
    const outcome = operationOutcomeOf(error);
    expect(r4Errors(outcome)).toEqual([]);
    expect(outcome.issue.map((issue) => [issue.severity, issue.code, issue.expression?.[0], issue.details?.text])).toEqual([
      ['error', 'invalid', 'Bundle.entry[1].resource.birthDate', 'must be a full date in the form YYYY-MM-DD that exists on the calendar'],
      ['error', 'invalid', 'Bundle.resourceType', 'must be "Bundle"'],
      ['error', 'required', 'Bundle.entry', 'is required'],
    ]);
    expect(outcome.issue.every((issue) => issue.details?.coding?.[0]?.system === SYSTEMS.errorCode && issue.details.coding[0].code === 'INVALID_REQUEST')).toBe(
      true,
    );
  });

  it('a truncated list says so in an informational issue', () => {
    const errors = Array.from({ length: 60 }, (_, i) => ({ field: `entry[${i}]`, message: 'must be an object' }));
    const outcome = operationOutcomeOf(serviceError('INVALID_REQUEST', { errors }));
    expect([outcome.issue.length, outcome.issue.at(-1)?.severity, outcome.issue.at(-1)?.code]).toEqual([51, 'information', 'informational']);
    expect(r4Errors(outcome)).toEqual([]);
  });

  it('an exact mock body (no code) is one exception issue with its words', () => {
    const outcome = operationOutcomeOf(EXACT.MOCK_ELIGIBILITY_ERROR.body);
    expect(outcome).toEqual({
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'exception', details: { text: 'Mock: Error retrieving eligibility data.' } }],
    });
    expect(r4Errors(outcome)).toEqual([]);
  });

  it('the 415 names the FHIR media type', () => {
    expect(operationOutcomeOf(serviceError('UNSUPPORTED_MEDIA_TYPE')).issue[0]?.details?.text).toBe(
      'Content-Type must be application/fhir+json (or application/json)',
    );
  });
});

describe('fhirHttpResponse', () => {
  it('keeps a success body and status, in FHIR media type', () => {
    const response = fhirHttpResponse(jsonResponse(200, { resourceType: 'Bundle', type: 'collection' }, 'r-1', { 'idempotent-replayed': 'true' }));
    expect([
      response.statusCode,
      response.headers['content-type'],
      response.headers['x-request-id'],
      response.headers['idempotent-replayed'],
      JSON.parse(response.body).resourceType,
    ]).toEqual([200, 'application/fhir+json', 'r-1', 'true', 'Bundle']);
  });

  it('turns an error into an OperationOutcome with the same status and headers (Retry-After, no-store)', () => {
    const response = fhirHttpResponse(errorResponse(serviceError('PAYER_UNAVAILABLE'), 'r-2'));
    expect([response.statusCode, response.headers['retry-after'], response.headers['cache-control'], response.headers['content-type']]).toEqual([
      503,
      '30',
      'no-store',
      'application/fhir+json',
    ]);
    const body = JSON.parse(response.body);
    expect(body).toEqual({
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'error',
          code: 'transient',
          details: { coding: [{ system: SYSTEMS.errorCode, code: 'PAYER_UNAVAILABLE' }], text: 'The payer or clearinghouse is unavailable; try again later' },
        },
      ],
    });
    expect(r4Errors(body)).toEqual([]);
  });
});

describe('the R4 validation these tests rely on (test/support/fhir-r4.ts)', () => {
  it('is live: it reports a missing required element, an impossible date and an unknown property', () => {
    expect(r4Errors({ resourceType: 'OperationOutcome', issue: [] })).toEqual(['OperationOutcome.issue: Missing required property']);
    expect(r4Errors({ resourceType: 'Patient', birthDate: '1980-02-30x' })).toEqual(['Patient.birthDate: Invalid date format']);
    expect(r4Errors({ resourceType: 'Patient', nonsense: 1 })).toEqual(['Patient.nonsense: Invalid additional property "nonsense"']);
  });
});
