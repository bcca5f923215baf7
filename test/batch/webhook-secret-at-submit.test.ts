import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { dynamoBatchStore } from '../../lib/batch/adapters/dynamodb.js';
import { submitBatch, type BatchRouteDeps } from '../../lib/batch/routes.js';
import type { BatchStore } from '../../lib/batch/store.js';
import { DEFAULT_BATCH_SETTINGS } from '../../lib/batch/types.js';
import { fixedClock } from '../../lib/config/clock.js';
import { createBatchTable } from '../../infra/dev/local/batch.js';
import { localDynamoClient, startDynalite, type LocalDynamo } from '../../infra/dev/local/enrollments.js';
import { MOCK_SET_1 } from '../support/events.js';

/**
 * A webhook that could never be signed is refused at submit (docs/batch.md#webhook-secrets): a batch with
 * a callbackUrl from a client with no webhook secret is a 400 naming the admin command, and nothing is
 * stored or queued; the same batch without callbackUrl, or from a client with a secret, is accepted.
 */

const SECRET = `whsec_${Buffer.from('submit-test-secret-of-32-bytes!!').toString('base64')}`;
let dynamo: LocalDynamo;
let store: BatchStore;
let queued: number;
let ids = 0;

beforeAll(async () => {
  dynamo = await startDynalite();
  store = dynamoBatchStore(localDynamoClient(dynamo.endpoint), await createBatchTable(dynamo.endpoint, 'batches'));
});
afterAll(async () => dynamo.close());

const deps = (): BatchRouteDeps => ({
  store,
  items: {
    sendItems: async (_clientId, messages) => {
      queued += messages.length;
    },
    sendFanOuts: async (_clientId, messages) => {
      queued += messages.reduce((n, message) => n + message.indexes.length, 0);
    },
  },
  webhooks: { sendWebhook: async () => undefined },
  settings: DEFAULT_BATCH_SETTINGS,
  allowLoopbackHttp: false,
  webhookSecretsFor: async (clientId) => (clientId === 'signed' ? [SECRET] : []),
  clock: fixedClock('2026-11-24T20:00:00Z'),
  newId: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
});
const body = (extra: Record<string, unknown> = {}) => ({ items: [MOCK_SET_1], ...extra });

describe('callbackUrl needs a webhook secret', () => {
  it('refuses a callbackUrl from a client with no webhook secret with a 400 naming the admin command, storing nothing', async () => {
    queued = 0;
    const idsBefore = ids;
    const refused = await submitBatch(deps(), { body: body({ callbackUrl: 'https://hooks.clinic.example/batch' }), clientId: 'unsigned' });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error).toMatchObject({
      status: 400,
      code: 'INVALID_REQUEST',
      errors: [
        {
          field: 'callbackUrl',
          message:
            'cannot be signed: this client has no webhook secret yet; an administrator creates one with: npm run admin -- webhook-secret create --client unsigned',
        },
      ],
    });
    // Refused before a batch id was even drawn: nothing stored, nothing queued.
    expect(ids).toBe(idsBefore);
    expect(queued).toBe(0);
  });

  it('accepts the batch without callbackUrl, and with it from a client that has a secret', async () => {
    queued = 0;
    expect((await submitBatch(deps(), { body: body(), clientId: 'unsigned' })).ok).toBe(true);
    const signed = await submitBatch(deps(), { body: body({ callbackUrl: 'https://hooks.clinic.example/batch' }), clientId: 'signed' });
    expect(signed.ok && signed.value.status).toBe(202);
    expect(queued).toBe(2);
  });
});
