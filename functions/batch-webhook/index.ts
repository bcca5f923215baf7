import { webhookSecretsOf } from '../../lib/auth/index.js';
import { batchWiring, systemLookup, webhookHandler } from '../../lib/batch/index.js';
import { systemClock } from '../../lib/config/index.js';

const wiring = batchWiring();

/** The webhook queue's consumer: signs and sends each finished batch's webhook (docs/batch.md#webhook). */
export const handler = webhookHandler({
  store: wiring.store,
  secretsFor: (clientId) => webhookSecretsOf(clientId),
  lookup: systemLookup,
  allowLoopback: wiring.allowLoopbackHttp,
  delay: wiring.delayWebhook,
  clock: systemClock,
});
