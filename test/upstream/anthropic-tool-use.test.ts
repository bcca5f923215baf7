import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createMessage } from '../../lib/upstream/anthropic.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/anthropic-fake.js';

/**
 * A forced tool call streamed (docs/finding-coverage.md#insurance-card): the tool_use block's input
 * arrives as input_json_delta events, is put together and parsed, and counts against the text cap.
 */

let fake: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  await fake?.close();
});

const input = { isInsuranceCard: true, memberId: 'W186512943', copays: [{ service: 'PCP', amount: '$25' }], note: 'x'.repeat(300) };
const call = (maxTextBytes?: number) =>
  createMessage({
    apiKey: 'test-key',
    baseURL: fake.url,
    budgetMs: 10_000,
    ...(maxTextBytes ? { maxTextBytes } : {}),
    request: { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'read' }], tool_choice: { type: 'tool', name: 'record' } },
  });

describe('a streamed tool_use block', () => {
  it("keeps the tool's whole input, parsed", async () => {
    fake.answer([{ type: 'tool_use', id: 'toolu_1', name: 'record', input }]);
    const answer = await call();
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.value.message.content).toEqual([{ type: 'tool_use', id: 'toolu_1', name: 'record', input }]);
  });

  it('is too long past the cap, counted on its JSON', async () => {
    fake.answer([{ type: 'tool_use', id: 'toolu_1', name: 'record', input }]);
    const answer = await call(200);
    expect(answer).toMatchObject({ ok: false, failure: { kind: 'too-long' } });
  });
});
