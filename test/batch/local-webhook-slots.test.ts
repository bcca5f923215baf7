import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sha256Hex } from '../../lib/auth/tokens.js';
import { startLocalEnvironment, type LocalEnvironment } from '../support/local-environment.js';
import { startLocalServer, type LocalServer } from '../../infra/dev/local/server.js';
import { listen } from '../../infra/dev/listen.js';
import { MOCK_SET_1 } from '../support/events.js';

/**
 * Webhook slots per client on the local server (docs/batch.md#local): a client whose receiver takes the
 * request and never answers holds its own slots only; another client's webhook is delivered while those
 * connections are still open. Asserted by the order of events at the receivers, not by elapsed time.
 */

const secret = (seed: string) => `whsec_${Buffer.from(seed.padEnd(32, '!')).toString('base64')}`;
let environment: LocalEnvironment;
let server: LocalServer;
let hanging: Server;
let hangingUrl: string;
let calm: Server;
let calmUrl: string;
/** Requests the hanging receiver holds open (never answered). */
const held: IncomingMessage[] = [];
let heldChanged: () => void = () => {};
let calmArrived: (openAtHangingReceiver: number) => void = () => {};

const submit = async (token: string, callbackUrl: string) => {
  const response = await fetch(`${server.url}/api/eligibility/batch/v1`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ callbackUrl, items: [MOCK_SET_1] }),
  });
  expect(response.status).toBe(202);
};
const openAtHanging = () => held.filter((req) => !req.socket.destroyed).length;

const savedEnv = { ...process.env };

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'batch-slots-'));
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
  hanging = createServer((req) => {
    req.resume();
    held.push(req);
    heldChanged();
  });
  hangingUrl = `${await listen(hanging, { port: 0, host: '127.0.0.1' })}/hooks`;
  calm = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calmArrived(openAtHanging());
      res.writeHead(204).end();
    });
  });
  calmUrl = `${await listen(calm, { port: 0, host: '127.0.0.1' })}/hooks`;
  environment = await startLocalEnvironment(process.env, { batch: { msPerSecond: 10 } });
  server = await startLocalServer({ port: 0 });
});
afterAll(async () => {
  process.env = { ...savedEnv };
  hanging.closeAllConnections();
  await server?.close();
  await environment?.close();
  await Promise.all([hanging, calm].map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('webhook slots per client on the local server', () => {
  it("delivers one client's webhook while another client's receiver holds its deliveries open", async () => {
    const twoHeld = new Promise<void>((resolve) => {
      heldChanged = () => {
        if (held.length >= 2) resolve();
      };
    });
    for (let i = 0; i < 3; i++) await submit('hog-token', hangingUrl);
    await twoHeld;
    const arrived = new Promise<number>((resolve) => {
      calmArrived = resolve;
    });
    await submit('calm-token', calmUrl);
    // The hanging receiver still holds both of its client's slots when the other client's webhook arrives.
    expect(await arrived).toBe(2);
    expect(held).toHaveLength(2);
  });
});
