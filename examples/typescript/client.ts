/**
 * A typed client in a few lines: `api.d.ts` is generated from the API's OpenAPI document by
 * openapi-typescript (`npm run types` here, or `npx openapi-typescript openapi.json -o api.d.ts`),
 * and openapi-fetch turns it into checked calls: a typo in a field or a path fails to compile.
 *
 *   npm start                                  # in the repository root: the API on 127.0.0.1:3000
 *   npx tsx examples/typescript/client.ts      # prints mock set 1's in-network figures
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './api.js';

export type EligibilityRequest = components['schemas']['EligibilityRequest'];
export type EligibilityResponse = components['schemas']['EligibilityResponse'];

export function apiClient(baseUrl: string, token: string) {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });
}

/** Checks eligibility; resolves the answer, or throws with the service's error code and request id. */
export async function checkEligibility(baseUrl: string, token: string, request: EligibilityRequest): Promise<EligibilityResponse> {
  const { data, error, response } = await apiClient(baseUrl, token).POST('/api/eligibility/v1', {
    body: request,
    params: { header: { 'X-Request-Id': `example-${Date.now()}` } },
  });
  // The route also answers a PDF (Accept: application/pdf), typed as a string; this call asks for JSON.
  if (data && typeof data === 'object') return data;
  const code = error && 'code' in error ? error.code : 'no code';
  throw new Error(`eligibility failed: ${response.status} ${code}: ${error?.message} (request ${response.headers.get('x-request-id')})`);
}

export async function health(baseUrl: string): Promise<string> {
  const { data } = await createClient<paths>({ baseUrl }).GET('/api/health');
  return data ? `${data.status} ${data.version}` : 'down';
}

// Run directly: `npx tsx examples/typescript/client.ts [baseUrl] [token]`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const [baseUrl = 'http://127.0.0.1:3000', token = 'local-dev-token'] = process.argv.slice(2);
  console.log('health:', await health(baseUrl));
  const answer = await checkEligibility(baseUrl, token, {
    patientFirstName: 'John',
    patientLastName: 'Doe',
    patientDOB: '01-01-1980',
    patientMemberId: '123456789',
    dateOfCoverage: '01-01-2025',
    payerId: 'PAYER001',
    providerId: 'PROVIDER001',
    mockRequest: true,
  });
  const { individual } = answer.inNetwork;
  console.log(`${answer.message} copay ${individual.copay}, deductible ${individual.deductible.remaining} of ${individual.deductible.total} left`);
}
