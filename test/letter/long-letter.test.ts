import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { invokeHandler } from '../../infra/dev/local/awslambda.js';
import { loadHandler } from '../../infra/dev/local/routes.js';
import { apiEvent, lambdaContext } from '../support/events.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';

/**
 * A letter that takes longer than the gateway's integration cut is still answered 200, because the
 * letter route streams (docs/runtime.md#streamed-letter). The cut is configured short here (the
 * local server's `integrationTimeoutMs`, 29 s by default like API Gateway's) and the sandbox Messages
 * API holds its answer past it (SANDBOX:DELAY), so the proof takes about a second instead of 31.
 * A buffered route on the same server is cut at the same point (test/local/integration-timeout.test.ts).
 */

const CUT_MS = 300;
const DELAY_SECONDS = 0.9;
const letterBody = JSON.parse(JSON.parse(readFileSync(new URL('../../events/letter-text.json', import.meta.url), 'utf8')).body) as Record<string, unknown>;
const slowLetter = { ...letterBody, patient_name: `Pat SANDBOX:DELAY=${DELAY_SECONDS}` };

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi({ integrationTimeoutMs: CUT_MS });
}, 60_000);
afterAll(async () => {
  await api?.close();
});

describe('a letter past the integration cut', () => {
  it('is answered 200 through the local server and through the streaming handler', async () => {
    const started = performance.now();
    const viaServer = api.call('/api/generate-letter', slowLetter).then((reply) => ({ ...reply, ms: performance.now() - started }));
    const viaHandler = (async () => {
      const result = await invokeHandler(await loadHandler('letter'), apiEvent('POST /api/generate-letter', slowLetter), lambdaContext);
      return { status: result.statusCode, body: JSON.parse(result.body), ms: performance.now() - started };
    })();
    const [server, direct] = await Promise.all([viaServer, viaHandler]);
    for (const reply of [server, direct]) {
      expect(reply.status).toBe(200);
      // The model's answer came after the cut: the reply was not cut at it.
      expect(reply.ms).toBeGreaterThan(DELAY_SECONDS * 1000);
      expect(reply.body.letter).toContain('Medical Necessity');
    }
  }, 60_000);
});
