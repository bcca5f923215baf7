import { expect } from '@jest/globals';
import { apiHandler } from '../../lib/http/api-handler.js';
import { type GatewayRequest, gatewayEvent, invoke, MOCK_SET_1, type Reply } from './events.js';

/**
 * The check that a route refuses a repeated identity header exactly as the POST routes do
 * (docs/security.md#headers). The local server refuses these before any function runs, so only an event
 * reaches a function's own refusal.
 */

export const TOKEN: [string, string] = ['Authorization', 'Bearer local-dev-token'];
/** Each identity header sent twice (another value or another letter case), after the one token. */
export const REPEATED_IDENTITY_HEADERS: [string, [string, string][]][] = [
  ['Authorization', [TOKEN, ['AUTHORIZATION', 'Bearer other-token']]],
  ['X-Request-Id', [TOKEN, ['X-Request-Id', 'id-1'], ['x-request-id', 'id-2']]],
  ['Idempotency-Key', [TOKEN, ['Idempotency-Key', 'k1'], ['IDEMPOTENCY-KEY', 'k2']]],
];

/** A POST route (the eligibility schema, a route that answers {}), whose refusal the others must equal. */
const post = apiHandler('probe', 'eligibility', async () => ({ ok: true, body: {} }));

/**
 * `reply` is the 400 that names `header`, under the gateway's request id, and equals what the POST route
 * answers to the same headers (with `postHeaders`, such as its Content-Type, before them), status, body and
 * headers alike.
 */
export async function expectPostRoutesRefusal(reply: Reply, header: string, request: GatewayRequest, postHeaders: [string, string][] = []): Promise<void> {
  expect(reply.status).toBe(400);
  expect(reply.body).toEqual({
    message: `The ${header} header is sent more than once; send it once`,
    code: 'INVALID_REQUEST',
    requestId: request.requestId,
    errors: [{ field: header, message: 'must be sent once' }],
  });
  const postReply = await invoke(
    post,
    gatewayEvent({
      method: 'POST',
      path: '/api/eligibility/v1',
      rawHeaders: [...postHeaders, ...request.rawHeaders],
      body: MOCK_SET_1,
      requestId: request.requestId,
    }),
  );
  expect([reply.status, reply.body, reply.headers]).toEqual([postReply.status, postReply.body, postReply.headers]);
}
