import { createServer } from 'node:http';
import { dynamoBatchStore } from '../../lib/batch/adapters/dynamodb.js';
import type { BatchRecord } from '../../lib/batch/types.js';
import { sendBatchWebhook } from '../../lib/batch/webhook.js';
import { createBatchTable } from '../../infra/dev/local/batch.js';
import { localDynamoClient, startDynalite } from '../../infra/dev/local/enrollments.js';
import { listen } from '../../infra/dev/listen.js';

/**
 * A finished batch's webhook as the sender (lib/batch/webhook.ts) delivers it (docs/batch.md#webhook):
 * the batch is stored in a local DynamoDB (dynalite), its webhook goes to a receiver on 127.0.0.1, and
 * what arrived comes back: the body text and the three Standard Webhooks headers.
 */

export interface WebhookDelivery {
  body: string;
  headers: { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string };
}

export interface WebhookReceiver {
  /** Stores `batch` with its callbackUrl on the receiver and sends its webhook, signed with the client's `secretsFor` at `now`. */
  deliver(batch: BatchRecord, secretsFor: (clientId: string) => Promise<string[]>, now?: () => number): Promise<WebhookDelivery>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const dynamo = await startDynalite();
  const store = dynamoBatchStore(localDynamoClient(dynamo.endpoint), await createBatchTable(dynamo.endpoint, 'batches'));
  const received: WebhookDelivery[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const header = (name: string) => String(req.headers[name]);
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        headers: { 'webhook-id': header('webhook-id'), 'webhook-timestamp': header('webhook-timestamp'), 'webhook-signature': header('webhook-signature') },
      });
      res.writeHead(204).end();
    });
  });
  const url = `${await listen(server, { port: 0, host: '127.0.0.1' })}/hook`;
  return {
    async deliver(batch, secretsFor, now = Date.now) {
      await store.create({ ...batch, callbackUrl: url }, []);
      const before = received.length;
      const deps = { store, secretsFor, lookup: async () => [{ address: '127.0.0.1', family: 4 }], allowLoopback: true, clock: { now } };
      const decision = await sendBatchWebhook(deps, batch.batchId, 1);
      if (decision.kind !== 'done' || received.length !== before + 1) throw new Error(`the webhook of batch ${batch.batchId} was not delivered`);
      return received[before]!;
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await dynamo.close();
    },
  };
}
