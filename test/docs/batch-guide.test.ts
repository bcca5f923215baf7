import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { emptyOutcomes } from '../../lib/batch/types.js';
import { PROJECT_ROOT } from '../../infra/deploy/settings.js';
import { startWebhookReceiver, type WebhookDelivery } from '../support/webhook-delivery.js';

/**
 * docs/batch.md's copy-paste webhook verifiers (TypeScript and Python) accept a webhook the service
 * signed, and refuse one signed with another secret or altered on the way.
 */

const GUIDE = readFileSync(join(PROJECT_ROOT, 'docs/batch.md'), 'utf8');
const block = (language: string) => {
  const match = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(GUIDE);
  expect(match).not.toBeNull();
  return match![1]!;
};
const SECRET = `whsec_${Buffer.from('docs-verifier-secret-of-32-bytes').toString('base64')}`;
const OTHER = `whsec_${Buffer.from('another-secret-which-is-32-bytes').toString('base64')}`;
const batch = {
  batchId: '3f0c2a8e-5b1d-4c7a-9e2f-6a1b2c3d4e5f',
  clientId: 'clinic',
  status: 'COMPLETED' as const,
  totalCount: 2,
  invalidCount: 0,
  counts: { pending: 0, inProgress: 0, completed: 2, failed: 0, cancelled: 0 },
  outcomes: emptyOutcomes(),
  createdAt: '2026-11-24T20:00:00.000Z',
  updatedAt: '2026-11-24T20:01:00.000Z',
};
mkdirSync(join(PROJECT_ROOT, 'cdk.out'), { recursive: true });
const dir = mkdtempSync(join(PROJECT_ROOT, 'cdk.out', 'batch-guide-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The webhook as the service sends it, signed now with SECRET, received on 127.0.0.1. */
let headers: WebhookDelivery['headers'];
let cases: { name: string; secret: string; body: string; ok: boolean }[];
beforeAll(async () => {
  const receiver = await startWebhookReceiver();
  const { body, headers: sent } = await receiver.deliver(batch, async () => [SECRET]).finally(() => receiver.close());
  headers = sent;
  cases = [
    { name: 'as sent', secret: SECRET, body, ok: true },
    { name: 'another secret', secret: OTHER, body, ok: false },
    { name: 'altered body', secret: SECRET, body: body.replace('"completed":2', '"completed":3'), ok: false },
  ];
});

describe('docs/batch.md webhook verifiers', () => {
  it('the TypeScript verifier accepts the service’s webhook and refuses a wrong secret or an altered body', () => {
    writeFileSync(join(dir, 'verify.ts'), block('ts'));
    writeFileSync(
      join(dir, 'run.ts'),
      `import { verifyBatchWebhook } from './verify.ts';\nconst cases = ${JSON.stringify(cases)};\nconst headers = ${JSON.stringify(headers)};\n` +
        'console.log(JSON.stringify(cases.map((c) => { try { return (verifyBatchWebhook(c.secret, c.body, headers) as any).data.batchId; } catch { return false; } })));\n',
    );
    const out = execFileSync(process.execPath, ['--no-warnings', '--import', 'tsx', join(dir, 'run.ts')], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([batch.batchId, false, false]);
  });

  it('the Python verifier does the same', () => {
    writeFileSync(
      join(dir, 'verify.py'),
      `${block('python')}\nimport sys\ncases = json.loads(sys.argv[1])\nheaders = json.loads(sys.argv[2])\nresults = []\nfor c in cases:\n    try:\n        results.append(verify_batch_webhook(c["secret"], c["body"].encode(), headers)["data"]["batchId"])\n    except ValueError:\n        results.append(False)\nprint(json.dumps(results))\n`,
    );
    const out = execFileSync('python3', [join(dir, 'verify.py'), JSON.stringify(cases), JSON.stringify(headers)], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([batch.batchId, false, false]);
  });
});
