import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HTTP_INTEGRATION_CONTENT_TYPE, isStreamingHandler, ResponseCapture } from '../../infra/dev/local/awslambda.js';
import type { LocalEnvironment } from '../../infra/dev/local/environment.js';
import { apiEvent, lambdaContext } from '../support/events.js';

/**
 * The streamed letter function, invoked in process as Lambda's runtime would: with a response
 * stream stand-in that records the HTTP integration framing (content type, JSON prelude with status
 * and headers, eight NUL bytes, body).
 */

const letterBody = JSON.parse(JSON.parse(readFileSync(new URL('../../events/letter-text.json', import.meta.url), 'utf8')).body) as Record<string, unknown>;
const ROUTE = 'POST /api/generate-letter';

let environment: LocalEnvironment;
let handler: (event: unknown, stream: ResponseCapture, context: unknown) => Promise<void>;

beforeAll(async () => {
  const { startLocalEnvironment } = await import('../support/local-environment.js');
  environment = await startLocalEnvironment(process.env);
  const { loadHandler } = await import('../../infra/dev/local/routes.js');
  handler = (await loadHandler('letter')) as never;
}, 30_000);
afterAll(async () => {
  await environment?.close();
});

async function run(event: unknown): Promise<ResponseCapture> {
  const stream = new ResponseCapture();
  await handler(event, stream, lambdaContext);
  return stream;
}

describe('streamed letter handler', () => {
  it('is marked as a streaming handler (awslambda.streamifyResponse)', () => {
    expect(isStreamingHandler(handler)).toBe(true);
  });

  it('writes the HTTP prelude, then exactly one JSON document, then ends the stream', async () => {
    const event = apiEvent(ROUTE, { ...letterBody, patient_name: 'Pat SANDBOX:DELAY=1' });
    // A lower bound only: it proves the stream stayed open through the model's configured 1 s wait
    // (the sandbox's timer never fires early). No upper bound: a loaded machine may answer later.
    const started = Date.now();
    const stream = await run(event);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(stream.contentType).toBe(HTTP_INTEGRATION_CONTENT_TYPE);
    expect(stream.ended).toBe(true);
    expect(stream.prelude).toEqual({
      statusCode: 200,
      headers: expect.objectContaining({ 'content-type': 'application/json', 'x-request-id': event.requestContext.requestId }),
    });
    const body = JSON.parse(stream.body);
    expect(body).toMatchObject({ letter: expect.stringContaining('Pat SANDBOX:DELAY=1'), timestamp: expect.any(String), invoice_cost: letterBody.visit_cost });
  });

  it('streams error answers with their own status and body', async () => {
    const unsupported = await run(apiEvent(ROUTE, letterBody, { contentType: 'text/plain' }));
    expect(unsupported.prelude?.statusCode).toBe(415);
    expect(JSON.parse(unsupported.body).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const refused = await run(apiEvent(ROUTE, { ...letterBody, patient_name: 'Pat SANDBOX:REFUSAL' }));
    expect(refused.prelude?.statusCode).toBe(422);
    expect(JSON.parse(refused.body).code).toBe('LETTER_NOT_GENERATED');
  });
});
