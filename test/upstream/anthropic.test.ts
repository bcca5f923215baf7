import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { startMessagesSandbox, type MessagesSandbox } from '../../infra/sandbox/messages-api.js';
import { writeLetterBody, type WriteLetterArgs } from '../../lib/upstream/anthropic.js';
import { procedureNotesPdf, toBase64 } from '../fixtures/letter/pdfs.js';

let sandbox: MessagesSandbox;
let pdfBase64: string;
beforeAll(async () => {
  sandbox = await startMessagesSandbox();
  pdfBase64 = toBase64(await procedureNotesPdf());
});
afterAll(() => sandbox.close());

const metadata = {
  patient_name: 'Ada Lovelace',
  patient_age: '47',
  patient_identifier: 'PAT-0001',
  facility_name: 'Riverside Orthopedics',
  visit_cost: '$32,000.00',
};

const call = (overrides: Partial<WriteLetterArgs> & { name?: string } = {}) => {
  const { name, ...rest } = overrides;
  return writeLetterBody({
    apiKey: 'sandbox-key',
    baseURL: sandbox.url,
    model: 'claude-test-model',
    timeoutMs: 10_000,
    pdfBase64,
    metadata: { ...metadata, patient_name: name ?? metadata.patient_name },
    ...rest,
  });
};

const expectFailure = async (promise: ReturnType<typeof call>, status: number, code: string) => {
  const result = await promise;
  expect(result.ok).toBe(false);
  if (result.ok) throw new Error('expected a failure');
  expect(result.error).toMatchObject({ status, code });
  return result.error;
};

describe('writeLetterBody', () => {
  it('returns the checked body, the model, the request id and one attempt', async () => {
    const before = sandbox.requestCount();
    const result = await call();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.body).toMatch(/^## Diagnosis/);
    expect(result.value.body).toContain('Ada Lovelace');
    expect(result.value.body).toContain('M17.11');
    expect(result.value.model).toBe('claude-test-model');
    expect(result.value.requestId).toMatch(/^req_sandbox_/);
    expect(result.value.attempts).toBe(1);
    expect(sandbox.requestCount() - before).toBe(1);
  });

  it('retries a transient 529 once and succeeds', async () => {
    const result = await call({ name: 'SANDBOX:FLAKY retry-test' });
    expect(result.ok && result.value.attempts).toBe(2);
  });

  it.each([
    ['SANDBOX:529', undefined],
    ['SANDBOX:500', undefined],
    ['SANDBOX:429', 1],
  ])('gives 503 AI_UNAVAILABLE after one retry for %s', async (marker, retryAfter) => {
    const before = sandbox.requestCount();
    const error = await expectFailure(call({ name: marker }), 503, 'AI_UNAVAILABLE');
    expect(sandbox.requestCount() - before).toBe(2);
    if (retryAfter) expect(error.retryAfterSeconds).toBe(retryAfter);
    else expect(error.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('does not retry when the budget cannot hold a second attempt', async () => {
    const before = sandbox.requestCount();
    await expectFailure(call({ name: 'SANDBOX:529', timeoutMs: 2_000 }), 503, 'AI_UNAVAILABLE');
    expect(sandbox.requestCount() - before).toBe(1);
  });

  it('maps a rejected key to 500 CONFIGURATION_ERROR without echoing it', async () => {
    const error = await expectFailure(call({ apiKey: 'invalid-secret-value-123' }), 500, 'CONFIGURATION_ERROR');
    expect(JSON.stringify(error)).not.toContain('secret-value');
  });

  it('maps 403 to CONFIGURATION_ERROR and does not retry', async () => {
    const before = sandbox.requestCount();
    await expectFailure(call({ name: 'SANDBOX:403' }), 500, 'CONFIGURATION_ERROR');
    expect(sandbox.requestCount() - before).toBe(1);
  });

  it('maps a missing key to CONFIGURATION_ERROR without a call', async () => {
    const before = sandbox.requestCount();
    await expectFailure(call({ apiKey: '' }), 500, 'CONFIGURATION_ERROR');
    expect(sandbox.requestCount()).toBe(before);
  });

  it('maps a timeout to 504 within the budget', async () => {
    const started = Date.now();
    await expectFailure(call({ name: 'SANDBOX:TIMEOUT', timeoutMs: 800 }), 504, 'UPSTREAM_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it.each([
    ['SANDBOX:400', /could not process/],
    ['SANDBOX:REFUSAL', /declined/],
    ['SANDBOX:DECLINE', /could not write/],
    ['SANDBOX:PLACEHOLDER', /placeholders/],
    ['SANDBOX:TRUNCATED', /cut off/],
  ])('maps %s to 422 LETTER_NOT_GENERATED', async (marker, message) => {
    const error = await expectFailure(call({ name: marker }), 422, 'LETTER_NOT_GENERATED');
    expect(error.message).toMatch(message);
  });

  it('maps an unreadable answer to 502 UPSTREAM_ERROR', () => expectFailure(call({ name: 'SANDBOX:BADJSON' }), 502, 'UPSTREAM_ERROR'));

  it('maps an unreachable host to 503 after a retry', async () => {
    const closed = await startMessagesSandbox();
    const url = closed.url;
    await closed.close();
    await expectFailure(call({ baseURL: url }), 503, 'AI_UNAVAILABLE');
  });
});
