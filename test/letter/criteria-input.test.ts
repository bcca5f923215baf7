import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { startMessagesSandbox, type MessagesSandbox } from '../../infra/dev/sandbox/messages-api.js';
import { SAMPLE_FILES } from '../../infra/dev/sandbox/sample-documents.js';
import { generateLetter, type LetterAi } from '../../lib/letter/pipeline.js';
import { validateBody } from '../../lib/validation/index.js';
import type { LetterRequest } from '../../lib/validation/schemas.js';
import { HOSTILE_PDFS } from '../fixtures/letter/hostile-pdfs.js';
import { letterAiAt } from '../support/anthropic-fake.js';

// The policy and the denial are read like the notes (docs/letter.md#letter-types): the same gate, the
// same limits, the same answers, naming their field; and the request's new fields are checked first.

let sandbox: MessagesSandbox;
beforeAll(async () => {
  sandbox = await startMessagesSandbox();
});
afterAll(() => sandbox.close());

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const base: LetterRequest = {
  file_content: b64(readFileSync(SAMPLE_FILES.notes)),
  patient_identifier: 'PAT-0214',
  patient_name: 'Ana Silva',
  patient_age: '58',
  facility_name: 'Lakeside Spine Center',
  visit_cost: '$41,200.00',
  provider_email: 'spine@lakeside.example',
  provider_phone: '+1 555 0100',
  provider_signature: '/s/ R. Okafor',
  provider_name: 'Rita Okafor, MD',
};
const ai = (): LetterAi => letterAiAt(sandbox.url, { key: 'sandbox', id: 'claude-sandbox' });

describe('hostile policy and denial files', () => {
  const cases: Array<[string, () => string, number, RegExp]> = [
    ['4 MB of "<<" after %PDF-', () => b64(HOSTILE_PDFS['dict-openers'].make()), 400, /too complex to read safely/],
    ['not a PDF', () => Buffer.from('hello, this is not a pdf').toString('base64'), 400, /is not a PDF/],
    ['not base64', () => 'not base64!', 400, /is not standard base64/],
    ['over 4 MiB', () => 'A'.repeat(6_000_000), 413, /decodes to more than 4 MiB/],
  ];
  for (const field of ['policy_file_content', 'denial_file_content'] as const) {
    for (const [name, make, status, message] of cases) {
      it(`${field}: ${name} gets ${status}, naming the field, before the model is asked`, async () => {
        const before = sandbox.requestCount();
        const { result } = await generateLetter({ ...base, letter_type: 'appeal', denial_file_content: base.file_content, [field]: make() }, ai());
        expect(result.ok).toBe(false);
        if (result.ok) return;
        expect(result.error.status).toBe(status);
        expect(result.error.code).toBe(status === 400 ? 'INVALID_FILE' : 'PAYLOAD_TOO_LARGE');
        expect(result.error.message).toMatch(message);
        expect(result.error.message).toContain(field);
        expect(sandbox.requestCount()).toBe(before);
      });
    }
  }
});

describe('the request', () => {
  const problems = (body: unknown) => {
    const result = validateBody('letter', body);
    return result.ok ? [] : result.error.errors;
  };

  it('refuses an appeal without its denial, naming the field', () => {
    expect(problems({ ...base, letter_type: 'appeal' })).toEqual([
      { field: 'denial_file_content', message: 'is required when letter_type is appeal (the PDF of the denial letter or EOB)' },
    ]);
    expect(problems({ ...base, letter_type: 'appeal', denial_file_content: base.file_content })).toEqual([]);
    expect(problems({ ...base, letter_type: 'prior_authorization' })).toEqual([]);
  });

  it('refuses more than 20 requested services, and a service that is not a procedure code', () => {
    const services = (count: number) => Array.from({ length: count }, (_, i) => ({ code: String(22_600 + i) }));
    expect(problems({ ...base, requested_services: services(20) })).toEqual([]);
    expect(problems({ ...base, requested_services: services(21) })).toEqual([
      { field: 'requested_services', message: 'must list at most 20 requested services' },
    ]);
    expect(problems({ ...base, requested_services: [{ code: '2263' }] })).toEqual([
      { field: 'requested_services[0].code', message: expect.stringMatching(/^must be a procedure code/) },
    ]);
  });

  it('refuses an unknown letter type and a policy name past 200 characters', () => {
    expect(problems({ ...base, letter_type: 'complaint' })).toEqual([
      { field: 'letter_type', message: 'must be medical_necessity, prior_authorization or appeal' },
    ]);
    expect(problems({ ...base, policy_name: 'x'.repeat(201) })).toEqual([
      { field: 'policy_name', message: 'must be at most 200 characters long (spaces count)' },
    ]);
  });
});
