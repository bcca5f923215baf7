import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { apiHandler } from '../../lib/http/api-handler.js';
import { logger } from '../../lib/logging/index.js';
import { apiEvent, invoke, MOCK_SET_1 } from '../support/events.js';

/** One structured access line per request, carrying the route's own (patient-free) fields. */

let lines: string[] = [];
const original = process.stdout.write.bind(process.stdout);

beforeEach(() => {
  lines = [];
  logger.setLogLevel('INFO');
  process.stdout.write = ((chunk: unknown) => {
    lines.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
});
afterEach(() => {
  process.stdout.write = original;
  logger.setLogLevel('SILENT');
});

const records = () => lines.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

describe('access log', () => {
  it('a mock eligibility request writes exactly one line with route, status, latency, mock and payer id', async () => {
    const { handler } = await import('../../functions/eligibility/index.js');
    const event = apiEvent('POST /api/eligibility/v1', MOCK_SET_1);
    await invoke(handler, event);
    const written = records();
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      level: 'INFO',
      message: 'request',
      requestId: event.requestContext.requestId,
      route: 'eligibility',
      status: 200,
      mock: true,
      payerId: 'PAYER001',
      latencyMs: expect.any(Number),
    });
  });

  it('an error line carries the code, and the route fields survive a failing outcome', async () => {
    const failing = apiHandler('probe', 'eligibility', async () => ({
      ok: false,
      error: { status: 500, body: { message: 'Mock request not found' } },
      log: { mock: true, payerId: 'PAYER009' },
    }));
    await invoke(failing, apiEvent('POST /api/eligibility/v1', MOCK_SET_1));
    await invoke(failing, apiEvent('POST /api/eligibility/v1', { ...MOCK_SET_1, extra: 1 }));
    const [mockMiss, invalid] = records();
    expect(mockMiss).toMatchObject({ route: 'probe', status: 500, mock: true, payerId: 'PAYER009' });
    expect(mockMiss).not.toHaveProperty('code');
    expect(invalid).toMatchObject({ route: 'probe', status: 400, code: 'INVALID_REQUEST' });
  });
});
