import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { listen } from '../../infra/dev/listen.js';
import { cardRoute } from '../../lib/card/route.js';
import { fixedClock } from '../../lib/config/clock.js';
import { runtimeFromEnv, withModel } from '../../lib/runtime/index.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/anthropic-fake.js';

/**
 * What the card route answers when the model does not give a card (docs/finding-coverage.md#insurance-card):
 * the route over a loopback Messages API in its wire format, built from the environment as a container is.
 */

const front = readFileSync(new URL('../../infra/dev/sandbox/cards/medicare.png', import.meta.url)).toString('base64');
let fake: FakeAnthropic;
let overloaded: Server;
let overloadedUrl: string;

beforeAll(async () => {
  fake = await startFakeAnthropic();
  overloaded = createServer((_req, res) => {
    res.writeHead(529, { 'content-type': 'application/json', 'retry-after': '7' });
    res.end(JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
  });
  overloadedUrl = await listen(overloaded, {});
});
afterAll(async () => {
  await fake?.close();
  await new Promise<void>((resolve) => overloaded.close(() => resolve()));
});

const route = (baseUrl: string, key = 'test-key') => {
  const env = { ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: baseUrl, UPSTREAM_BUDGET_MS: '3000' };
  return cardRoute(withModel(runtimeFromEnv(env, fixedClock(Date.UTC(2025, 2, 1))), env));
};
const read = (baseUrl: string, key?: string) => route(baseUrl, key)({ body: { front }, clientId: 'local', requestId: 'r1' });
const codeOf = (outcome: Awaited<ReturnType<typeof read>>) => (outcome.ok ? 'ok' : 'code' in outcome.error ? outcome.error.code : 'exact');

describe('the card route when the model gives no card', () => {
  it('a text answer without the tool call → CARD_NOT_READ', async () => {
    fake.answer([{ type: 'text', text: 'Member ID 1EG4TE5MK73' }]);
    expect(codeOf(await read(fake.url))).toBe('CARD_NOT_READ');
  });

  it('the model sends the images and the forced tool', async () => {
    fake.answer([{ type: 'tool_use', id: 't', name: 'record_insurance_card', input: { isInsuranceCard: true, memberId: 'A1' } }]);
    const outcome = await read(fake.url);
    expect(outcome.ok).toBe(true);
    const sent = fake.requests.at(-1)! as { tool_choice: unknown; messages: Array<{ content: Array<{ type: string; source?: { data: string } }> }> };
    expect(sent.tool_choice).toEqual({ type: 'tool', name: 'record_insurance_card' });
    expect(sent.messages[0]!.content.find((block) => block.type === 'image')!.source!.data).toBe(front);
  });

  it('an overloaded API after the retry → 503 AI_UNAVAILABLE with its Retry-After', async () => {
    const outcome = await read(overloadedUrl);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'AI_UNAVAILABLE', status: 503, retryAfterSeconds: 7 } });
  });

  it('no key → 500 CONFIGURATION_ERROR, nothing sent', async () => {
    const before = fake.requests.length;
    expect(codeOf(await read(fake.url, ''))).toBe('CONFIGURATION_ERROR');
    expect(fake.requests.length).toBe(before);
  });
});
