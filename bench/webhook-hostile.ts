/**
 * A hostile webhook receiver against the local server (docs/batch.md#webhook), written to
 * bench/results/webhook-hostile.json. Two clients on loopback: "hog", whose receiver answers its
 * headers at once and then drips one byte every 5 s for 5 minutes, submits three one-item mock batches
 * with a callbackUrl; once its receiver holds two deliveries, "calm" submits one batch whose receiver
 * answers 204 at once. Printed: how late calm's webhook arrives after calm's submit was answered, and
 * how long the hog's deliveries were held before the sender cut them.
 * Target: calm's webhook within 1 s (one client's receiver never delays another's); the hog's
 * deliveries cut at the 10 s deadline.
 * Alone: `npx tsx bench/webhook-hostile.ts` (at most about six minutes when the rules do not hold).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { listen } from '../infra/dev/listen.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DRIP_EVERY_MS = 5_000;
const DRIPS = 60;
const HOG_BATCHES = 3;
const GIVE_UP_MS = 360_000;

export interface WebhookHostileReport {
  dripEveryMs: number;
  dripForMs: number;
  /** From calm's 202 to its webhook at calm's receiver; null when it never came within GIVE_UP_MS. */
  calmLateMs: number | null;
  /** How long each hog delivery was held open until the sender hung up (or the drip ended). */
  hogHeldMs: number[];
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const secret = (seed: string) => `whsec_${Buffer.from(seed.padEnd(32, '!')).toString('base64')}`;

async function main(): Promise<WebhookHostileReport> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
  const tokensFile = join(dir, 'tokens.json');
  writeFileSync(
    tokensFile,
    JSON.stringify({
      clients: [
        { clientId: 'hog', tokenSha256: sha256Hex('hog-file-token'), webhookSecret: secret('hog') },
        { clientId: 'calm', tokenSha256: sha256Hex('calm-file-token'), webhookSecret: secret('calm') },
      ],
    }),
  );
  process.env.API_TOKENS = 'hog=hog-token,calm=calm-token';
  process.env.API_TOKENS_FILE = tokensFile;
  process.env.LOG_LEVEL = 'SILENT';

  const held: { req: IncomingMessage; at: number; heldMs?: number }[] = [];
  let twoHeld: () => void = () => {};
  const hog = createServer((req, res) => {
    const entry: { req: IncomingMessage; at: number; heldMs?: number } = { req, at: performance.now() };
    held.push(entry);
    if (held.length === 2) twoHeld();
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.flushHeaders();
    let dripped = 0;
    const timer = setInterval(() => {
      if (++dripped > DRIPS) {
        clearInterval(timer);
        res.end();
      } else res.write('.');
    }, DRIP_EVERY_MS);
    res.on('close', () => {
      clearInterval(timer);
      entry.heldMs = performance.now() - entry.at;
    });
  });
  let calmArrived: () => void = () => {};
  const calm = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calmArrived();
      res.writeHead(204).end();
    });
  });
  const hogUrl = `${await listen(hog, { port: 0, host: '127.0.0.1' })}/hooks`;
  const calmUrl = `${await listen(calm, { port: 0, host: '127.0.0.1' })}/hooks`;

  const { startLocalEnvironment } = await import('../infra/dev/local/environment.js');
  const { startLocalServer } = await import('../infra/dev/local/server.js');
  const environment = await startLocalEnvironment(process.env);
  const server = await startLocalServer({ port: 0 });
  const submit = async (token: string, callbackUrl: string) => {
    const response = await fetch(`${server.url}/api/eligibility/batch/v1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        callbackUrl,
        items: [
          {
            patientFirstName: 'John',
            patientLastName: 'Doe',
            patientDOB: '01-01-1980',
            patientMemberId: '123456789',
            dateOfCoverage: '01-01-2025',
            payerId: 'PAYER001',
            providerId: 'PROVIDER001',
            mockRequest: true,
          },
        ],
      }),
    });
    if (response.status !== 202) throw new Error(`submit answered ${response.status}: ${await response.text()}`);
  };

  const slotsFull = new Promise<void>((resolve) => {
    twoHeld = resolve;
  });
  for (let i = 0; i < HOG_BATCHES; i++) await submit('hog-token', hogUrl);
  await slotsFull;
  const arrived = new Promise<number>((resolve) => {
    calmArrived = () => resolve(performance.now());
  });
  await submit('calm-token', calmUrl);
  const submittedAt = performance.now();
  const calmAt = await Promise.race([arrived, new Promise<null>((resolve) => setTimeout(() => resolve(null), GIVE_UP_MS).unref())]);
  // Let the hog's first two deliveries end (cut at the deadline, or the drip's end) for the second figure.
  const deadline = performance.now() + GIVE_UP_MS;
  while (held.slice(0, 2).some((h) => h.heldMs === undefined) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 100));

  const report: WebhookHostileReport = {
    dripEveryMs: DRIP_EVERY_MS,
    dripForMs: DRIP_EVERY_MS * DRIPS,
    calmLateMs: calmAt === null ? null : Math.round(calmAt - submittedAt),
    hogHeldMs: held.flatMap((h) => (h.heldMs === undefined ? [] : [Math.round(h.heldMs)])),
  };
  hog.closeAllConnections();
  await server.close();
  await environment.close();
  await Promise.all([hog, calm].map((s) => new Promise((resolve) => s.close(resolve))));
  return report;
}

const report = await main();
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, 'bench/results/webhook-hostile.json'), `${JSON.stringify(report, null, 2)}\n`);
console.log(
  `calm client's webhook arrived ${report.calmLateMs === null ? `not within ${GIVE_UP_MS / 1000} s` : `${report.calmLateMs} ms`} after its submit; ` +
    `hog's deliveries held ${report.hogHeldMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')} (receiver drips a byte every ${DRIP_EVERY_MS / 1000} s)`,
);
process.exit(0);
