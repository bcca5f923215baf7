import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { invokeHandler } from '../../infra/local/awslambda.js';
import { loadHandler } from '../../infra/local/routes.js';
import { apiEvent, lambdaContext } from '../support/events.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';

/**
 * A letter that takes longer than API Gateway's 30 s integration cut is still answered 200: the
 * sandbox Messages API holds its answer 31 real seconds (SANDBOX:DELAY=31), once through the local
 * server (which cuts buffered integrations at 29 s, as the gateway does, but streams the letter) and
 * once through the streaming handler directly. Both run at the same time, so the file takes ~31 s.
 */

const DELAY_SECONDS = 31;
const letterBody = JSON.parse(JSON.parse(readFileSync(new URL('../../events/letter-text.json', import.meta.url), 'utf8')).body) as Record<string, unknown>;
const slowLetter = { ...letterBody, patient_name: `Pat SANDBOX:DELAY=${DELAY_SECONDS}` };

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
}, 30_000);
afterAll(async () => {
  await api?.close();
});

describe('a letter past 30 s', () => {
  it(
    'is answered 200 through the local server and through the streaming handler',
    async () => {
      const started = Date.now();
      const viaServer = api.call('/api/generate-letter', slowLetter).then((reply) => ({ ...reply, ms: Date.now() - started }));
      const viaHandler = (async () => {
        const result = await invokeHandler(await loadHandler('letter'), apiEvent('POST /api/generate-letter', slowLetter), lambdaContext);
        return { status: result.statusCode, body: JSON.parse(result.body), ms: Date.now() - started };
      })();
      const [server, direct] = await Promise.all([viaServer, viaHandler]);
      for (const reply of [server, direct]) {
        expect(reply.status).toBe(200);
        expect(reply.ms).toBeGreaterThan(30_000);
        expect(reply.body.letter).toContain('Medical Necessity');
      }
    },
    90_000,
  );
});
