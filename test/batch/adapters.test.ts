import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from '@jest/globals';

/**
 * The batch domain's own modules reach storage and queues only through the interfaces it owns
 * (lib/batch/store.ts, queue.ts): the DynamoDB and SQS adapters live in lib/batch/adapters/, and
 * nothing else in lib/batch imports an AWS SDK. Time comes from the one Clock (docs/architecture.md#time).
 * The webhook sender and callback URL checks are another part's and not looked at here.
 */

const root = join(new URL('.', import.meta.url).pathname, '../../lib/batch');
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
const domain = files(root)
  .map((file) => relative(root, file))
  .filter((file) => !file.startsWith('adapters/') && !/^(webhook|callback-url)\.ts$/.test(file));

describe('the batch domain', () => {
  it('imports no AWS SDK outside lib/batch/adapters/', () => {
    const importing = domain.filter((file) => /from '@aws-sdk\//.test(readFileSync(join(root, file), 'utf8')));
    expect(importing).toEqual([]);
  });

  it('has its DynamoDB and SQS adapters in lib/batch/adapters/', () => {
    const adapters = files(join(root, 'adapters')).map((file) => relative(root, file));
    expect(adapters).toEqual(expect.arrayContaining(['adapters/dynamodb.ts', 'adapters/sqs.ts']));
  });

  it('reads the time only through a Clock', () => {
    const reading = domain.filter((file) => /Date\.now\b|new Date\(\)/.test(readFileSync(join(root, file), 'utf8')));
    expect(reading).toEqual([]);
  });
});
