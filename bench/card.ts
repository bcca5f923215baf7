/**
 * An insurance card read end to end against the sandboxes (docs/finding-coverage.md#sample-cards): the
 * local server as `npm start` runs it (dev token, sandbox Messages API and clearinghouse, dynalite),
 * each sample card sent over loopback HTTP and answered; then the Medicare card with `check` (the
 * eligibility check in the same request). Milliseconds per request from the client's side, median and
 * p95 over ROUNDS requests each, after a warm-up. The sandbox model answers at once, so this is what
 * the service itself adds: the header checks, the base64 of the images, the model call's streaming,
 * the answer's checks, the directory search and, with `check`, the 270/271.
 *
 * Run: npx tsx bench/card.ts   → prints and writes bench/results/card.json
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SAMPLE_CARDS } from '../infra/dev/sandbox/cards/samples.js';
import { logger } from '../lib/logging/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.CARD_ROUNDS ?? 40);

export interface CardBenchRow {
  case: string;
  requestKiB: number;
  status: number;
  medianMs: number;
  p95Ms: number;
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const at = (values: number[], p: number) => sorted(values)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const image = (file: string) => readFileSync(join(root, 'infra/dev/sandbox/cards', file)).toString('base64');

export async function measureCards(rounds = ROUNDS): Promise<CardBenchRow[]> {
  logger.setLogLevel('SILENT');
  const { startLocalEnvironment } = await import('../infra/dev/local/environment.js');
  const { startLocalServer } = await import('../infra/dev/local/server.js');
  const environment = await startLocalEnvironment(process.env);
  const server = await startLocalServer({ port: 0 });
  const token = environment.devToken ?? 'local-dev-token';
  const cases = [
    ...SAMPLE_CARDS.map((card) => ({
      case: card.kind,
      body: { front: image(card.sides[0]!.file), ...(card.sides[1] ? { back: image(card.sides[1].file) } : {}) },
    })),
    {
      case: 'Medicare card with check (eligibility of the sandbox patient)',
      body: { front: image('medicare.png'), check: { patientDOB: '11-02-1950', dateOfCoverage: '03-01-2025', providerId: 'PROVIDER-SANDBOX-1' } },
    },
  ];
  const rows: CardBenchRow[] = [];
  try {
    for (const { case: name, body } of cases) {
      const text = JSON.stringify(body);
      const send = async () => {
        const started = performance.now();
        const response = await fetch(`${server.url}/api/insurance-card/v1`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: text,
        });
        await response.arrayBuffer();
        return { ms: performance.now() - started, status: response.status };
      };
      for (let i = 0; i < 3; i++) await send();
      const times: number[] = [];
      let status = 0;
      for (let i = 0; i < rounds; i++) {
        const { ms, status: got } = await send();
        times.push(ms);
        status = got;
      }
      rows.push({
        case: name,
        requestKiB: Math.round(text.length / 1024),
        status,
        medianMs: Math.round(at(times, 0.5) * 10) / 10,
        p95Ms: Math.round(at(times, 0.95) * 10) / 10,
      });
    }
  } finally {
    await server.close();
    await environment.close();
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await measureCards();
  for (const row of rows) console.log(`${row.case}: ${row.status}, ${row.requestKiB} KiB, median ${row.medianMs} ms, p95 ${row.p95Ms} ms`);
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/card.json'), `${JSON.stringify(rows, null, 2)}\n`);
}
