import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eligibilityPdf } from '../../lib/eligibility/printout.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';
import { pdfInfo, pdfText, qpdfCheck } from '../support/pdf-tools.js';
import { MOCK_SET_1 } from '../support/events.js';

/**
 * The printable summary (docs/api.md#printable-summary): `Accept: application/pdf` on the eligibility
 * route answers one page of the same answer, checked with the npm PDF tools (pdf.js text and page count,
 * qpdf --check as WebAssembly: docs/testing.md#pdf-tools), over loopback against the local server; JSON
 * stays the default, errors stay JSON, a replay is the same bytes.
 */

const textOf = (bytes: Uint8Array) => pdfText(bytes);
const pagesOf = async (bytes: Uint8Array) => (await pdfInfo(bytes)).pages;
const checked = async (bytes: Uint8Array) => (await qpdfCheck(bytes)).stdout;
let keys = 0;

const MARIA = {
  patientFirstName: 'Maria',
  patientLastName: 'Garcia',
  patientDOB: '04-12-1985',
  patientMemberId: 'PPO100001',
  dateOfCoverage: '03-01-2025',
  payerId: 'SBXPPO',
  providerId: 'PROVIDER-SANDBOX-1',
  serviceTypeCodes: ['30', '98'],
  estimate: { lines: [{ serviceTypeCode: '98', amount: 180 }] },
};

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
}, 60_000);
afterAll(async () => {
  await api?.close();
});

async function post(body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${api.url}/api/eligibility/v1`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}
const json = (bytes: Uint8Array) => JSON.parse(Buffer.from(bytes).toString('utf8'));

describe('POST /api/eligibility/v1 with Accept: application/pdf', () => {
  it('answers one page of the same answer as raw PDF bytes: payer, plan, patient, status, figures, services, estimate, checked-at', async () => {
    const pdf = await post(MARIA, { accept: 'application/pdf' });
    expect([pdf.status, pdf.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    expect(Buffer.from(pdf.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(await checked(pdf.bytes)).toMatch(/No syntax or stream encoding errors found/);
    expect(await pagesOf(pdf.bytes)).toBe(1);

    const answer = json((await post(MARIA)).bytes);
    const text = await textOf(pdf.bytes);
    for (const expected of [
      'Eligibility summary',
      answer.payerName,
      'SBXPPO',
      answer.plan.name,
      'MARIA GARCIA',
      'PPO100001',
      `Coverage status: ${answer.coverageStatus}`,
      answer.inNetwork.individual.copay,
      answer.inNetwork.family.deductible.remaining,
      answer.outNetwork.individual.stopLoss,
      answer.outNetwork.family.coinsurance,
      'Services asked about',
      answer.benefits[0].serviceType.name,
      'Patient owes',
      answer.estimate.patientOwes,
      'Out of network',
      'In network',
    ])
      expect(text).toContain(expected);
    expect(text).toMatch(/Checked \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/);
  });

  it('keeps JSON the default: no Accept, application/json, */* and a JSON-first list all answer JSON', async () => {
    for (const accept of [undefined, 'application/json', '*/*', 'application/json, application/pdf', 'application/pdf;q=0.5, application/json']) {
      const answer = await post(MARIA, accept ? { accept } : {});
      expect([accept, answer.status, answer.headers.get('content-type')]).toEqual([accept, 200, 'application/json']);
      expect(json(answer.bytes).coverageStatus).toBe('Active');
    }
    const pdfFirst = await post(MARIA, { accept: 'application/pdf, application/json;q=0.9' });
    expect(pdfFirst.headers.get('content-type')).toBe('application/pdf');
  });

  it('answers an Accept that allows neither with 406 NOT_ACCEPTABLE, and errors as JSON whatever Accept says', async () => {
    for (const accept of ['text/html', 'application/xml, text/*', 'application/json;q=0, application/pdf;q=0']) {
      const refused = await post(MARIA, { accept });
      expect([refused.status, refused.headers.get('content-type')]).toEqual([406, 'application/json']);
      expect(json(refused.bytes)).toMatchObject({ code: 'NOT_ACCEPTABLE', message: expect.stringContaining('application/pdf') });
    }
    const invalid = await post({ ...MARIA, patientDOB: '02-30-1985' }, { accept: 'application/pdf' });
    expect([invalid.status, invalid.headers.get('content-type'), json(invalid.bytes).code]).toEqual([400, 'application/json', 'INVALID_REQUEST']);
    const rejected = await post(
      { ...MARIA, patientFirstName: 'Kevin', patientLastName: 'Wright', patientDOB: '07-07-1990', patientMemberId: 'ERR720072' },
      { accept: 'application/pdf' },
    );
    expect([rejected.status, json(rejected.bytes).code]).toEqual([422, 'PAYER_REJECTED']);
  });

  it('prints a mock answer too', async () => {
    const pdf = await post({ ...MOCK_SET_1, mockRequest: true }, { accept: 'application/pdf' });
    expect([pdf.status, pdf.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    const answer = json((await post({ ...MOCK_SET_1, mockRequest: true })).bytes);
    const text = await textOf(pdf.bytes);
    expect(text).toContain('Mock answer');
    expect(text).toContain(`${MOCK_SET_1.patientFirstName} ${MOCK_SET_1.patientLastName}`);
    expect(text).toContain(answer.inNetwork.individual.copay);
    expect(await pagesOf(pdf.bytes)).toBe(1);
  });

  it('replays an Idempotency-Key with the same bytes', async () => {
    const key = `pdf-replay-${++keys}-${process.pid}`;
    const first = await post(MARIA, { accept: 'application/pdf', 'idempotency-key': key });
    const again = await post(MARIA, { accept: 'application/pdf', 'idempotency-key': key });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.status).toBe(200);
    expect(Buffer.from(again.bytes).equals(Buffer.from(first.bytes))).toBe(true);
  });
});

describe('the summary of a long answer', () => {
  const figures = {
    copay: '$25.00',
    deductible: { total: '$1,500.00', remaining: '$1,250.50' },
    coinsurance: '20%',
    stopLoss: '$6,000.00',
    stopLossRemaining: 'N/A',
  };
  const block = { individual: figures, family: figures };
  const benefit = (i: number) => ({
    serviceType: { code: String(i), name: `Service number ${i} with a rather long descriptive name to wrap` },
    status: 'Active',
    inNetwork: block,
    outNetwork: block,
    fromPlan: [],
    limitations: [],
    messages: [],
  });
  const long = {
    inNetwork: block,
    outNetwork: block,
    message: 'Eligibility check successful',
    coverageStatus: 'Active',
    payerName: 'محمد HEALTH 健康 PLAN',
    checkedAt: '2026-11-27T10:00:00.000Z',
    plan: { name: 'GOLD PPO 1500' },
    subscriber: { firstName: 'ЖАННА', lastName: 'O’NEIL', memberId: 'M1' },
    benefits: Array.from({ length: 100 }, (_, i) => benefit(i + 1)),
    otherPayers: [],
    notices: Array.from({ length: 30 }, (_, i) => ({ code: 'PAYER_MESSAGE', message: `Notice ${i + 1}: the payer says something a person should read.` })),
  };

  it('stays on one page, cutting the lists with "and N more", every script drawn', async () => {
    const pdf = await eligibilityPdf(long, { ...MARIA, serviceTypeCodes: undefined, estimate: undefined } as never);
    expect(await pagesOf(pdf)).toBe(1);
    expect(await checked(pdf)).toMatch(/No syntax or stream encoding errors found/);
    const text = await textOf(pdf);
    expect(text).toContain('and 88 more services');
    expect(text).toMatch(/and \d+ more notices/);
    expect(text).toContain('Notice 1:');
    expect(text).toContain('Service number 1 ');
    expect(text).not.toContain('Service number 100 ');
    expect(text).toContain('ЖАННА');
    expect(text).toContain('健康');
    expect(Buffer.from(await eligibilityPdf(long, MARIA as never)).equals(Buffer.from(pdf))).toBe(true);
  });
});
