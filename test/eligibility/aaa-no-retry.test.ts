import { describe, it, expect, beforeAll, afterAll, beforeEach } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkCob } from '../../lib/cob/check.js';
import { checkEligibility } from '../../lib/eligibility/check.js';
import type { Enrollment } from '../../lib/enrollment/types.js';
import { response271 } from '../fixtures/x12/build.js';
import { clearinghouseFor } from '../support/clearinghouse.js';

/**
 * docs/eligibility.md#payer-rejections-aaa: a reply whose AAA list holds 42 or 80 beside a code about the
 * request's data is a rejection (422 PAYER_REJECTED), sent once and never again. A loopback clearinghouse
 * answers every raw X12 and COB call with such a reply and counts the calls.
 */
const KEY = 'aaa-test-key';
const enrollment: Enrollment = { providerId: 'PROV-1', clientId: 'acme', npi: '1234567893', organizationName: 'ACME CLINIC', status: 'active' };
const request = {
  patientFirstName: 'Pat',
  patientLastName: 'Sample',
  patientDOB: '01-01-1980',
  patientMemberId: '00012345',
  dateOfCoverage: '03-01-2025',
  payerId: 'SBXPPO',
};

/** A 271 whose subscriber loop holds the given AAA segments. */
const withAaa = (...segments: string[]): string =>
  response271(['EB*1**30'])
    .replace('DMG*D8*19800101~', `DMG*D8*19800101~\n${segments.map((s) => `${s}~`).join('\n')}`)
    .replace(/SE\*(\d+)/, (_, n) => `SE*${Number(n) + segments.length}`);

const cobErrors = (...codes: string[]) => ({
  errors: codes.map((code) => ({ code, description: 'payer said so', followupAction: 'Please Correct and Resubmit', location: 'Loop 2100C' })),
});

let server: Server;
let base: string;
let calls = { rawX12: 0, cob: 0 };
let x12Reply = '';
let cobReply: unknown = {};

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const cob = req.url?.endsWith('/coordination-of-benefits') ?? false;
      if (cob) calls.cob += 1;
      else calls.rawX12 += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(cob ? cobReply : { x12: x12Reply }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  calls = { rawX12: 0, cob: 0 };
});

const clearinghouse = () => clearinghouseFor(base, KEY);

describe('a 42 or 80 beside a data code is a rejection, sent once', () => {
  it.each([
    ['42 and 72', ['AAA*N**42*P', 'AAA*N**72*C'], ['42', '72']],
    ['80 and 75', ['AAA*N**80*P', 'AAA*N**75*C'], ['80', '75']],
  ])('eligibility: AAA %s → 422 PAYER_REJECTED after exactly one call', async (_name, segments, codes) => {
    x12Reply = withAaa(...segments);
    const { result, meta } = await checkEligibility({ request, enrollment, clearinghouse: clearinghouse() });
    expect(result.ok === false && result.error.code).toBe('PAYER_REJECTED');
    expect(result.ok === false && result.error.rejections?.map((r) => r.code)).toEqual(codes);
    expect(meta.attempts).toBe(1);
    expect(calls.rawX12).toBe(1);
  });

  it('eligibility: AAA 42 alone is still retried once (two calls), then 503', async () => {
    x12Reply = withAaa('AAA*N**42*P');
    const { result, meta } = await checkEligibility({ request, enrollment, clearinghouse: clearinghouse() });
    expect(result.ok === false && result.error.code).toBe('PAYER_UNAVAILABLE');
    expect(meta.attempts).toBe(2);
    expect(calls.rawX12).toBe(2);
  });

  it.each([
    ['42 and 72', ['42', '72']],
    ['80 and 75', ['80', '75']],
  ])('COB: AAA %s → 422 PAYER_REJECTED after exactly one call', async (_name, codes) => {
    cobReply = cobErrors(...codes);
    const { result, meta } = await checkCob({ query: request, enrollment, clearinghouse: clearinghouse() });
    expect(result.ok === false && result.error.code).toBe('PAYER_REJECTED');
    expect(meta.attempts).toBe(1);
    expect(calls.cob).toBe(1);
  });

  it('COB: AAA 42 alone is still retried once', async () => {
    cobReply = cobErrors('42');
    const { result, meta } = await checkCob({ query: request, enrollment, clearinghouse: clearinghouse() });
    expect(result.ok === false && result.error.code).toBe('PAYER_UNAVAILABLE');
    expect(meta.attempts).toBe(2);
    expect(calls.cob).toBe(2);
  });
});
