import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { clearinghouseFor } from '../support/clearinghouse.js';
import { systemClock } from '../../lib/config/clock.js';
import { startMessagesSandbox, type MessagesSandbox } from '../../infra/dev/sandbox/messages-api.js';
import { readConfig } from '../../lib/config/index.js';
import { letterRoute } from '../../lib/letter/route.js';
import type { ModelRuntime } from '../../lib/runtime/index.js';
import { procedureNotesPdf, toBase64 } from '../fixtures/letter/pdfs.js';
import { modelAt } from '../support/anthropic-fake.js';

// The route puts the model's usage (token counts, never text) on the request's one log line.

let sandbox: MessagesSandbox;
beforeAll(async () => {
  sandbox = await startMessagesSandbox();
});
afterAll(() => sandbox.close());

const runtime = (): ModelRuntime => ({
  config: { ...readConfig({}), anthropicBaseUrl: sandbox.url },
  enrollments: () => Promise.reject(new Error('not used')),
  clearinghouse: clearinghouseFor('http://127.0.0.1:9', 'k'),
  clock: systemClock,
  model: modelAt(sandbox.url, { key: 'sandbox-key', id: readConfig({}).letterModel, sandbox: true }),
});

describe('letterRoute', () => {
  it('logs usage, attempts, citations and notice codes, and no text', async () => {
    const name = 'Philippa Quarrington';
    const body = {
      file_content: toBase64(await procedureNotesPdf()),
      patient_identifier: 'PAT-9',
      patient_name: name,
      patient_age: '50',
      facility_name: 'Clinic',
      visit_cost: '$1.00',
      provider_email: 'a@b.example',
      provider_phone: '+1 555 0100',
      provider_signature: '/s/ X',
      provider_name: 'X, MD',
    };
    const route = letterRoute(runtime(), { budgetMs: 20_000 });
    await route({ body, clientId: 'c', requestId: 'r1' }); // the first request writes the prompt cache
    const outcome = await route({ body, clientId: 'c', requestId: 'r2' });
    expect(outcome.ok).toBe(true);
    expect(outcome.log).toMatchObject({ upstream: 'anthropic', sandbox: true, attempts: 1, citations: expect.any(Number), codesRemoved: 0, notices: [] });
    expect(outcome.log!.inputTokens).toBeGreaterThan(0);
    expect(outcome.log!.outputTokens).toBeGreaterThan(0);
    expect(outcome.log!.cacheReadTokens).toBeGreaterThan(0);
    const line = JSON.stringify(outcome.log);
    expect(line).not.toContain(name);
    expect(line).not.toContain('osteoarthritis');
  });
});
