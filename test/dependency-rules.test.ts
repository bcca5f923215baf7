import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

/**
 * The import rules of docs/architecture.md#imports, proven on a small lib/ built here with
 * deliberate violations: dependency-cruiser with the repository's .dependency-cruiser.cjs, and Biome with
 * the repository's biome.json and its plugin against relative type queries. Each tool runs once (about a
 * second together).
 */

const root = fileURLToPath(new URL('..', import.meta.url));

/** A tiny repository: legal imports, and one of each hole the rules must close. */
const FIXTURE: Record<string, string> = {
  'tsconfig.json': '{}\n',
  'lib/errors/index.ts': "export { VERSION } from '../version.js';\n",
  'lib/version.ts': "import type { Answer } from './eligibility/types.js';\nexport const VERSION: Answer['version'] = '1';\n",
  'lib/eligibility/types.ts': 'export interface Answer {\n  version: string;\n}\n',
  'lib/eligibility/check.ts': "export { VERSION } from '../errors/index.js';\nexport type { Answer } from './types.js';\n",
  'lib/x12/index.ts': "export { NEW } from '../newthing/index.js';\nexport { STEDI } from '../upstream/stedi.js';\n",
  // letter may import runtime, not batch, though batch would rank below it; and other folders only through their door.
  'lib/letter/route.ts': "export { BATCH } from '../batch/index.js';\nexport { ON_ITS_DOOR } from '../errors/index.js';\n",
  'lib/batch/index.ts': 'export const BATCH = 1;\n',
  'lib/mcp/tools.ts': "export { STEDI } from '../upstream/stedi.js';\n",
  'lib/upstream/index.ts': "export { STEDI } from './stedi.js';\n",
  'functions/eligibility/index.ts': "export { Answer } from '../../lib/eligibility/types.js';\n",
  'lib/x12/segment.ts': "export { NEW } from './index.js';\n",
  'lib/newthing/index.ts': 'export const NEW = 1;\n',
  'lib/upstream/stedi.ts': "export { VERSION as STEDI } from '../errors/index.js';\n",
  'lib/letter/query.ts': [
    "import type { Answer } from '../eligibility/types.js';",
    "export type Queried = import('../eligibility/types.js').Answer | Answer;",
    "export type Fs = typeof import('node:fs');",
    '',
  ].join('\n'),
  'bench/query.ts': "export type Queried = import('../lib/eligibility/types.js').Answer;\n",
};

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dependency-rules-'));
  for (const [name, text] of Object.entries(FIXTURE)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  mkdirSync(join(dir, 'lint'));
  copyFileSync(join(root, 'biome.json'), join(dir, 'biome.json'));
  copyFileSync(join(root, 'lint/relative-type-query.grit'), join(dir, 'lint/relative-type-query.grit'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a node script from node_modules in the fixture and returns its JSON report. */
function report(bin: string, args: string[]): unknown {
  const run = spawnSync(process.execPath, [join(root, 'node_modules', bin), ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  expect(run.stdout).not.toBe('');
  return JSON.parse(run.stdout);
}

interface Cruise {
  summary: { violations: { from: string; to: string; rule: { name: string } }[] };
}

interface Lint {
  diagnostics: { category: string; location: { path: string; start: { line: number } } }[];
}

describe('dependency-cruiser rules', () => {
  it('forbids an import no allow-list names, a deep import past a door, a file directly under lib/ and an unknown folder; allows the rest', () => {
    const config = join(root, '.dependency-cruiser.cjs');
    const cruise = report('dependency-cruiser/bin/dependency-cruise.mjs', ['lib', 'functions', '--config', config, '--output-type', 'json']) as Cruise;
    const found = cruise.summary.violations.map(({ rule, from, to }) => `${rule.name}: ${from}${from === to ? '' : ` → ${to}`}`).sort();
    expect(found).toEqual([
      'handlers-and-tools-through-the-doors: functions/eligibility/index.ts → lib/eligibility/types.ts',
      'lib-errors-may-import: lib/errors/index.ts → lib/version.ts',
      'lib-folders-through-their-door: lib/letter/query.ts → lib/eligibility/types.ts',
      'lib-folders-through-their-door: lib/mcp/tools.ts → lib/upstream/stedi.ts',
      'lib-folders-through-their-door: lib/x12/index.ts → lib/upstream/stedi.ts',
      'lib-letter-may-import: lib/letter/query.ts → lib/eligibility/types.ts',
      'lib-letter-may-import: lib/letter/route.ts → lib/batch/index.ts',
      'lib-mcp-may-import: lib/mcp/tools.ts → lib/upstream/stedi.ts',
      'lib-module-is-in-a-folder: lib/version.ts → lib/eligibility/types.ts',
      'lib-module-outside-the-folders-is-not-imported: lib/newthing/index.ts',
      'lib-module-outside-the-folders-is-not-imported: lib/version.ts',
      'lib-x12-may-import: lib/x12/index.ts → lib/newthing/index.ts',
      'lib-x12-may-import: lib/x12/index.ts → lib/upstream/stedi.ts',
    ]);
  });
});

describe('the allow-lists of .dependency-cruiser.cjs', () => {
  it('refuse a cycle: two folders that may import each other stop the check from loading', () => {
    const text = readFileSync(join(root, '.dependency-cruiser.cjs'), 'utf8');
    // logging may import config; config importing logging closes the circle.
    const cyclic = text.replace('  config: [],', "  config: ['logging'],");
    expect(cyclic).not.toBe(text);
    writeFileSync(join(dir, 'cyclic.cjs'), cyclic);
    const run = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(join(dir, 'cyclic.cjs'))})`], { encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/MAY_IMPORT has a cycle: config → logging → config/);
  });
});

describe('Biome plugin lint/relative-type-query.grit', () => {
  it('reports a relative import() type query in lib/, not an `import type`, a package type query or bench/', () => {
    const lint = report('@biomejs/biome/bin/biome', ['lint', '--vcs-enabled=false', '--reporter=json', '.']) as Lint;
    const found = lint.diagnostics.map(({ category, location }) => `${category} ${location.path}:${location.start.line}`);
    expect(found).toEqual(['plugin lib/letter/query.ts:2']);
  });
});
