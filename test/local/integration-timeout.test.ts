import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLocalEnvironment, type LocalEnvironment } from '../support/local-environment.js';
import { startLocalServer, type LocalServer } from '../../infra/dev/local/server.js';
import { startClearinghouseSandbox, type ClearinghouseSandbox } from '../../infra/dev/sandbox/clearinghouse.js';

/**
 * The gateway's integration cut, scaled down: the local server cuts buffered integrations (as API
 * Gateway does at 29 s; here at 300 ms, as in test/letter/long-letter.test.ts) with the gateway's 504, but a streamed letter is not cut.
 * test/letter/long-letter.test.ts proves the letter through the streaming handler as well.
 */

const CUT_MS = 300;
const letterBody = JSON.parse(JSON.parse(readFileSync(new URL('../../events/letter-text.json', import.meta.url), 'utf8')).body) as Record<string, unknown>;
const slowPatient = {
  patientFirstName: 'Sam',
  patientLastName: 'Slow',
  patientDOB: '01-01-1980',
  patientMemberId: 'FLTSLOW',
  dateOfCoverage: '03-01-2025',
  payerId: 'SBXPPO',
  providerId: 'PROVIDER-SANDBOX-1',
};

let clearinghouse: ClearinghouseSandbox;
let environment: LocalEnvironment;
let server: LocalServer;
const post = async (path: string, body: unknown) => {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: 'Bearer local-dev-token', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};

beforeAll(async () => {
  clearinghouse = await startClearinghouseSandbox({ apiKey: 'cut-key', slowMs: 3 * CUT_MS });
  process.env.STEDI_BASE_URL = clearinghouse.url;
  process.env.STEDI_API_KEY = 'cut-key';
  environment = await startLocalEnvironment(process.env);
  server = await startLocalServer({ port: 0, integrationTimeoutMs: CUT_MS });
}, 30_000);
afterAll(async () => {
  await server?.close();
  await environment?.close();
  await clearinghouse?.close();
});

describe('integration cut', () => {
  it("a buffered integration slower than the cut gets the gateway's 504; the streamed letter is not cut", async () => {
    const [eligibility, letter] = await Promise.all([
      post('/api/eligibility/v1', slowPatient),
      post('/api/generate-letter', { ...letterBody, patient_name: `Pat SANDBOX:DELAY=${(2 * CUT_MS) / 1000}` }),
    ]);
    expect(eligibility).toEqual({ status: 504, body: { message: 'Endpoint request timed out' } });
    expect(letter.status).toBe(200);
    expect(letter.body.letter).toContain('Medical Necessity');
  }, 30_000);
});
