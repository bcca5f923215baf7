/**
 * The stack stays in small parts (docs/deployment.md#where-each-part-lives): no file of infra/deploy over
 * 300 lines, and the guide names every part, so a new construct file cannot go undocumented.
 */
import { describe, it, expect } from '@jest/globals';
import { readdirSync } from 'node:fs';
import { readRepoFile as read, ROOT } from '../support/repo-docs.js';

const MAX_LINES = 300;
const tsFiles = (dir: string) =>
  readdirSync(`${ROOT}${dir}`)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `${dir}/${name}`);
const parts = tsFiles('infra/deploy/constructs');

describe("the stack's parts", () => {
  it('are the files the deployment guide expects', () => {
    expect(parts).toEqual(
      expect.arrayContaining(
        ['data-stores', 'service-function', 'rest-api', 'routes', 'waf', 'nag-acknowledgements'].map((n) => `infra/deploy/constructs/${n}.ts`),
      ),
    );
  });

  it(`keep every file of infra/deploy at ${MAX_LINES} lines or fewer`, () => {
    const long = [...tsFiles('infra/deploy'), ...parts]
      .map((file) => [file, read(file).split('\n').length - 1] as const)
      .filter(([, lines]) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it('are each named in docs/deployment.md', () => {
    const guide = read('docs/deployment.md');
    expect(parts.filter((file) => !guide.includes(`\`${file}\``))).toEqual([]);
  });
});
