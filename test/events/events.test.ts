import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLocalEnvironment, type LocalEnvironment } from '../support/local-environment.js';
import { invokeHandler } from '../../infra/dev/local/awslambda.js';
import { loadHandler, type FunctionName } from '../../infra/dev/local/routes.js';
import { SERVICE_VERSION } from '../../lib/config/version.js';

/**
 * Every sample event in events/ runs through its function (as `npm run invoke` does) and gives the
 * documented answer. A new event file without an entry here fails the last test.
 */

const EVENTS_DIR = new URL('../../events/', import.meta.url);

const EXPECTED: Record<string, { fn: FunctionName; status?: number; check?: (body: any) => void }> = {
  'eligibility-mock-1': { fn: 'eligibility', status: 200, check: (b) => expect(b.inNetwork.individual.copay).toBe('$20.00') },
  'eligibility-mock-2': { fn: 'eligibility', status: 200, check: (b) => expect(b.inNetwork.family.deductible.remaining).toBe('$4,250.50') },
  'eligibility-mock-3': { fn: 'eligibility', status: 200, check: (b) => expect(b.outNetwork.family.stopLoss).toBe('N/A') },
  'eligibility-mock-4': { fn: 'eligibility', status: 502, check: (b) => expect(b).toEqual({ message: 'Mock: Error retrieving eligibility data.' }) },
  'eligibility-mock-with-cob': { fn: 'eligibility', status: 200, check: (b) => expect(b.cob.cobCode).toBe('CobInstanceExistsPrimacyDetermined') },
  'eligibility-mock-not-found': { fn: 'eligibility', status: 500, check: (b) => expect(b).toEqual({ message: 'Mock request not found' }) },
  'eligibility-real': {
    fn: 'eligibility',
    status: 200,
    check: (b) => expect(b).toMatchObject({ message: 'Eligibility check successful', coverageStatus: 'Active' }),
  },
  'eligibility-invalid': {
    fn: 'eligibility',
    status: 400,
    check: (b) =>
      expect(b.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['runCOBCheck', 'patientFirstName', 'patientDOB', 'payerId'])),
  },
  'fhir-real': {
    fn: 'fhir',
    status: 200,
    check: (b) => expect([b.resourceType, b.entry[0].resource.outcome, b.entry[0].resource.insurance[0].inforce]).toEqual(['Bundle', 'complete', true]),
  },
  'cob-mock': { fn: 'cob', status: 200, check: (b) => expect(b.cobCode).toBe('CobInstanceExistsPrimacyDetermined') },
  'cob-real': { fn: 'cob', status: 200, check: (b) => expect(b.additionalPlanBenefitInfo[0].payerPrimacy).toBe('SecondaryPayer') },
  'letter-text': { fn: 'letter', status: 200, check: (b) => expect(b.letter).toContain('Jordan Lee, MD, Orthopedic Surgery') },
  'letter-pdf': { fn: 'letter', status: 200, check: (b) => expect(Buffer.from(b.fileContent, 'base64').subarray(0, 5).toString()).toBe('%PDF-') },
  'not-found': { fn: 'not-found', status: 404, check: (b) => expect(b.code).toBe('NOT_FOUND') },
  health: { fn: 'health', status: 200, check: (b) => expect(b).toEqual({ status: 'ok', version: SERVICE_VERSION }) },
  // HEAD: the GET answer's status and headers, no body.
  'health-head': { fn: 'health', status: 200, check: (b) => expect(b).toBeUndefined() },
  openapi: {
    fn: 'openapi',
    status: 200,
    check: (b) => expect(b).toMatchObject({ openapi: '3.1.0', paths: { '/api/eligibility/v1': { post: { operationId: 'checkEligibility' } } } }),
  },
  authorizer: {
    fn: 'authorizer',
    check: (r) =>
      expect(r).toEqual({
        principalId: 'local',
        policyDocument: {
          Version: '2012-10-17',
          Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: 'arn:aws:execute-api:us-east-1:123456789012:abc123defg/prod/*' }],
        },
        context: { clientId: 'local' },
      }),
  },
};

const files = readdirSync(EVENTS_DIR).filter((name) => name.endsWith('.json'));

let environment: LocalEnvironment;
beforeAll(async () => {
  environment = await startLocalEnvironment(process.env);
});
afterAll(async () => {
  await environment?.close();
});

describe('sample events', () => {
  it.each(files.map((file) => [file.replace(/\.json$/, '')]))('%s runs and answers as documented', async (name) => {
    const expected = EXPECTED[name];
    if (!expected) throw new Error(`events/${name}.json has no expectation in this test`);
    const event = JSON.parse(readFileSync(new URL(`${name}.json`, EVENTS_DIR), 'utf8'));
    const handler = await loadHandler(expected.fn);
    const context = { awsRequestId: 'test', getRemainingTimeInMillis: () => 29_000 };
    if (expected.status === undefined) return expected.check?.(await (handler as (event: unknown) => Promise<unknown>)(event));
    // The letter function streams; invokeHandler collects its prelude and body like the others' results.
    const result = await invokeHandler(handler, event, context);
    expect(result.statusCode).toBe(expected.status);
    expect(result.headers['x-request-id']).toBe(event.requestContext.requestId);
    expected.check?.(result.body === '' ? undefined : JSON.parse(result.body));
  });

  it('every expectation has its event file', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(files.map((f) => f.replace(/\.json$/, '')).sort());
  });
});
