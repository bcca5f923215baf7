import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import type { Clock } from '../config/index.js';
import { log } from '../logging/index.js';
import { safeAddress, webhookSecretCommand, type Lookup } from './callback-url.js';
import type { BatchStore } from './store.js';
import type { BatchRecord } from './types.js';
import { batchView } from './views.js';

/**
 * The batch-completed webhook (docs/batch.md#webhook), per Standard Webhooks: a thin body with ids,
 * status and counts only (never patient data), signed with the client's `whsec_` secret by the
 * standardwebhooks package (headers webhook-id, webhook-timestamp, webhook-signature). One
 * webhook-id per batch, so a receiver can drop a retry it already handled. The destination is
 * checked when sent: every address its name resolves to must be public, and the connection goes to
 * the address that was checked (no second lookup a rebinding name could answer differently).
 * A non-2xx answer, or an answer not complete within 10 s of the start (a total deadline over the
 * lookup, the connection and the whole answer, not an idle timeout: a receiver that drips a byte now
 * and then is cut all the same), is retried at 1 min, 5 min, 30 min, 2 h and 8 h.
 */

/** The total time one delivery may take (docs/batch.md#webhook). */
export const WEBHOOK_DEADLINE_MS = 10_000;
/** Seconds before retry n (1-based); after the last, the webhook is given up and logged. */
const WEBHOOK_RETRY_SECONDS = [60, 300, 1800, 7200, 28800] as const;

interface WebhookBody {
  type: 'eligibility.batch.completed';
  timestamp: string;
  data: { batchId: string; status: string; counts: Record<string, number> };
}

function webhookBody(batch: BatchRecord, now: Date): WebhookBody {
  const view = batchView(batch);
  return {
    type: 'eligibility.batch.completed',
    timestamp: now.toISOString(),
    data: { batchId: batch.batchId, status: batch.status, counts: view.counts as Record<string, number> },
  };
}

const webhookId = (batchId: string): string => `msg_${batchId}`;

/**
 * The three Standard Webhooks headers for a body, signed with each secret (whsec_…): during a rotation
 * the new and the old secret both sign, space-separated, so a receiver holding either one verifies.
 */
function signedHeaders(secrets: string | string[], id: string, at: Date, payload: string): Record<string, string> {
  const signature = [secrets]
    .flat()
    .map((secret) => new Webhook(secret).sign(id, at, payload))
    .join(' ');
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
}

type Post = (url: URL, address: string, headers: Record<string, string>, body: string, signal: AbortSignal) => Promise<number>;

/**
 * POSTs to `url` connecting to `address` (already checked); resolves with the status once the whole
 * answer is read, rejects on a network error or when `signal` aborts (the deadline), which destroys the connection.
 */
const postTo: Post = (url, address, headers, body, signal) =>
  new Promise((resolve, reject) => {
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'eligibility-service-webhooks',
        },
        lookup: (_host, _options, callback) => callback(null, [{ address, family: address.includes(':') ? 6 : 4 }]),
        signal,
        ...(url.protocol === 'https:' ? { servername: url.hostname } : {}),
      },
      (res) => {
        res.resume();
        res.on('close', () => (res.complete ? resolve(res.statusCode ?? 0) : reject(new Error('the webhook answer was cut'))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });

/** `work` unless `signal` aborts first. */
function beforeDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('webhook deadline passed'));
  return new Promise((resolve, reject) => {
    const stop = () => reject(new Error('webhook deadline passed'));
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

export interface WebhookDeps {
  store: Pick<BatchStore, 'getBatch'>;
  /** The client's whsec_ secrets, current first (docs/batch.md#webhook-secrets); none when it has none. */
  secretsFor: (clientId: string) => Promise<string[]>;
  lookup: Lookup;
  post?: Post;
  allowLoopback: boolean;
  clock: Clock;
  /** The total deadline of one delivery (default WEBHOOK_DEADLINE_MS; tests shorten it). */
  deadlineMs?: number;
}

export type WebhookDecision = { kind: 'done' } | { kind: 'retry'; seconds: number };

/** Sends a batch's webhook; `attempt` is this delivery's number (1 = first). */
export async function sendBatchWebhook(deps: WebhookDeps, batchId: string, attempt: number): Promise<WebhookDecision> {
  const batch = await deps.store.getBatch(batchId);
  if (!batch?.callbackUrl) return { kind: 'done' };
  const fields = { route: 'batch-webhook', batchId, attempts: attempt };
  const secrets = await deps.secretsFor(batch.clientId);
  if (secrets.length === 0) {
    log.warn(`batch webhook not sent: the client has no webhook secret (${webhookSecretCommand('<client>')})`, { ...fields, clientId: batch.clientId });
    return { kind: 'done' };
  }
  const url = new URL(batch.callbackUrl);
  // One deadline over the lookup, the connection and the whole answer (docs/batch.md#webhook).
  const deadline = AbortSignal.timeout(deps.deadlineMs ?? WEBHOOK_DEADLINE_MS);
  const target = await beforeDeadline(safeAddress(url, deps.lookup, { allowLoopback: deps.allowLoopback }), deadline).catch(() => ({
    ok: false as const,
    reason: 'the callback host did not resolve in time',
  }));
  let delivered = false;
  let status: number | undefined;
  if (target.ok) {
    const at = new Date(deps.clock.now());
    const payload = JSON.stringify(webhookBody(batch, at));
    try {
      status = await beforeDeadline(
        (deps.post ?? postTo)(url, target.address, signedHeaders(secrets, webhookId(batchId), at, payload), payload, deadline),
        deadline,
      );
      delivered = status >= 200 && status < 300;
    } catch {
      delivered = false;
    }
  }
  const seconds = WEBHOOK_RETRY_SECONDS[attempt - 1];
  if (delivered) log.info('batch webhook delivered', { ...fields, ...(status ? { status } : {}) });
  else if (seconds === undefined)
    log.error('batch webhook given up', { ...fields, ...(status ? { status } : {}), code: target.ok ? 'WEBHOOK_FAILED' : 'WEBHOOK_BLOCKED' });
  else
    log.warn('batch webhook failed', { ...fields, ...(status ? { status } : {}), retryInSeconds: seconds, ...(target.ok ? {} : { code: 'WEBHOOK_BLOCKED' }) });
  return delivered || seconds === undefined ? { kind: 'done' } : { kind: 'retry', seconds };
}
