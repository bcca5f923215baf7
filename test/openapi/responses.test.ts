import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { COB_SANDBOX_PATIENTS } from '../../infra/dev/sandbox/cob-answers.js';
import { SANDBOX_PATIENTS } from '../../infra/dev/sandbox/patients.js';
import { MOCK_PATIENTS } from '../../lib/mock/patients.js';
import { responseProblems, type ResponseSchemaName } from '../support/response-schemas.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';

/**
 * Real answers, over HTTP from the local server with its sandboxes, against the response JSON
 * Schemas the OpenAPI document is built from (lib/validation/responses). Their objects are
 * closed, so a key added to an answer without a schema fails here; then `npm run openapi`.
 */

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
}, 30_000);
afterAll(async () => {
  await api?.close();
});

async function expectConforming(path: string, body: unknown, status: number, schema: ResponseSchemaName, init: Parameters<LocalApi['call']>[2] = {}) {
  const reply = await api.call(path, body, init);
  expect([path, reply.status]).toEqual([path, status]);
  expect(responseProblems(schema, reply.body)).toEqual([]);
  return reply.body;
}

const ELIGIBILITY = '/api/eligibility/v1';
const COB = '/api/eligibility/cob/v1';

describe('eligibility answers match EligibilityResponse', () => {
  it.each(MOCK_PATIENTS.slice(0, 3).map((p, i) => [i + 1, p] as const))('mock set %i, with and without runCobCheck', async (_set, patient) => {
    const plain = await expectConforming(ELIGIBILITY, { ...patient, mockRequest: true }, 200, 'eligibility');
    expect(Object.keys(plain).sort()).toEqual(['inNetwork', 'message', 'outNetwork']);
    expect(responseProblems('eligibility', { ...plain, benefits: [] })).not.toEqual([]);
    const withCob = await expectConforming(ELIGIBILITY, { ...patient, mockRequest: true, runCobCheck: true }, 200, 'eligibility');
    expect(withCob.cob.cobCode).toBeDefined();
  });

  it.each(SANDBOX_PATIENTS.filter((p) => !p.fault && !p.aaa).map((p) => [`${p.firstName} ${p.lastName}`, p] as const))(
    'sandbox patient %s (real pipeline)',
    async (_name, p) => {
      const body = await expectConforming(
        ELIGIBILITY,
        {
          patientFirstName: p.firstName,
          patientLastName: p.lastName,
          patientDOB: p.dob,
          patientMemberId: p.memberId,
          dateOfCoverage: '03-01-2025',
          payerId: p.payerId,
          providerId: 'PROVIDER-SANDBOX-1',
          runCobCheck: true,
        },
        200,
        'eligibility',
      );
      expect(body.message).toBe('Eligibility check successful');
      // Keys a real answer always has: RealEligibilityResponse requires them (cob too, since runCobCheck was sent).
      for (const key of ['coverageStatus', 'checkedAt', 'plan', 'subscriber', 'benefits', 'otherPayers', 'notices', 'cob'])
        expect([key, key in body]).toEqual([key, true]);
      // A real answer without one of them, or a mock answer with a real-only key, fits neither branch.
      const { benefits: _benefits, ...withoutBenefits } = body;
      expect(responseProblems('eligibility', withoutBenefits)).not.toEqual([]);
    },
  );

  it('with serviceTypeCodes and procedureCodes: benefits and procedures match too', async () => {
    const garcia = SANDBOX_PATIENTS.find((p) => p.memberId === 'PPO100001')!;
    const body = await expectConforming(
      ELIGIBILITY,
      {
        patientFirstName: garcia.firstName,
        patientLastName: garcia.lastName,
        patientDOB: garcia.dob,
        patientMemberId: garcia.memberId,
        dateOfCoverage: '03-01-2025',
        payerId: garcia.payerId,
        providerId: 'PROVIDER-SANDBOX-1',
        serviceTypeCodes: ['30', '98', 'UC'],
        procedureCodes: ['99213', 'D0120'],
      },
      200,
      'eligibility',
    );
    expect(body.procedures.map((p: { code: string }) => p.code)).toEqual(['99213', 'D0120']);
    expect(body.benefits.length).toBeGreaterThanOrEqual(3);
  });
});

describe('COB answers match CobResponse', () => {
  it.each(COB_SANDBOX_PATIENTS.filter((p) => 'cobCode' in p.expected).map((p) => [`${p.firstName} ${p.lastName}`, p] as const))(
    'sandbox patient %s',
    async (_name, p) => {
      const body: Record<string, unknown> = {
        patientFirstName: p.firstName,
        patientLastName: p.lastName,
        patientDOB: p.dateOfBirth,
        patientMemberId: p.memberId,
        dateOfCoverage: '03-01-2025',
        payerId: p.payerId,
        providerId: 'PROVIDER-SANDBOX-1',
      };
      if (p.dependent)
        Object.assign(body, { dependentFirstName: p.dependent.firstName, dependentLastName: p.dependent.lastName, dependentDOB: p.dependent.dateOfBirth });
      await expectConforming(COB, body, 200, 'cob');
    },
  );

  it('mock sets 1–3', async () => {
    for (const p of MOCK_PATIENTS.slice(0, 3)) {
      await expectConforming(
        COB,
        {
          patientFirstName: p.patientFirstName,
          patientLastName: p.patientLastName,
          dateOfCoverage: p.dateOfCoverage,
          payerId: p.payerId,
          providerId: p.providerId,
          mockRequest: true,
        },
        200,
        'cob',
      );
    }
  });
});

describe('letter, health and error answers', () => {
  const letter = JSON.parse((JSON.parse(readFileSync(new URL('../../events/letter-text.json', import.meta.url), 'utf8')) as { body: string }).body) as Record<
    string,
    unknown
  >;

  it('a markdown letter and a PDF letter match LetterResponse', async () => {
    const text = await expectConforming('/api/generate-letter', { ...letter, output_format: 'text' }, 200, 'letter');
    expect(typeof text.letter).toBe('string');
    const pdf = await expectConforming('/api/generate-letter', { ...letter, output_format: 'pdf' }, 200, 'letter');
    expect(typeof pdf.fileContent).toBe('string');
  }, 60_000);

  it('health matches HealthResponse', async () => {
    await expectConforming('/api/health', undefined, 200, 'health', { method: 'GET', token: null });
  });

  it('errors with a code match Error; the exact bodies match MessageOnly', async () => {
    const [kevin, paul] = ['ERR720072', 'ERR420042'].map((id) => SANDBOX_PATIENTS.find((p) => p.memberId === id)!);
    const real = (p: typeof kevin) => ({
      patientFirstName: p!.firstName,
      patientLastName: p!.lastName,
      patientDOB: p!.dob,
      patientMemberId: p!.memberId,
      dateOfCoverage: '03-01-2025',
      payerId: p!.payerId,
      providerId: 'PROVIDER-SANDBOX-1',
    });
    const rejected = await expectConforming(ELIGIBILITY, real(kevin), 422, 'error');
    expect(rejected.rejections[0].code).toBe('72');
    await expectConforming(ELIGIBILITY, real(paul), 503, 'error');
    const invalid = await expectConforming(ELIGIBILITY, { ...MOCK_PATIENTS[0], patientDOB: '02-30-1980', extra: 1 }, 400, 'error');
    expect(invalid.errors.length).toBe(2);
    await expectConforming(ELIGIBILITY, { ...real(kevin), providerId: 'PROVIDER-SANDBOX-INACTIVE' }, 403, 'error');
    await expectConforming('/api/nothing', {}, 404, 'error');
    await expectConforming(ELIGIBILITY, undefined, 405, 'error', { method: 'GET' });
    await expectConforming(ELIGIBILITY, {}, 415, 'error', { contentType: 'text/plain' });
    await expectConforming(ELIGIBILITY, MOCK_PATIENTS[0], 401, 'messageOnly', { token: null });
    await expectConforming(ELIGIBILITY, MOCK_PATIENTS[0], 403, 'messageOnly', { token: 'nope' });
    await expectConforming(ELIGIBILITY, { ...MOCK_PATIENTS[3], mockRequest: true }, 502, 'messageOnly');
    await expectConforming(ELIGIBILITY, { ...MOCK_PATIENTS[0], patientLastName: 'doe', mockRequest: true }, 500, 'messageOnly');
  }, 60_000);
});
