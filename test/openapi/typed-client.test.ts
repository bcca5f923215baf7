import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The generated TypeScript client types (examples/typescript/api.d.ts, from openapi.json) under a
 * strict-mode compile (the repository's TypeScript 7, the same type system as the example's TypeScript 5 at
 * a fiftieth of the time): once `message` says the answer is real,
 * every key a real answer always has is typed as present (no `?.`, no `!`), while the mock answer
 * and the un-narrowed union keep refusing them, so the check is live.
 */

const root = new URL('../../', import.meta.url).pathname;
const tsc = `${root}node_modules/.bin/tsc`;

const HEADER = `import type { components } from './api.js';
type EligibilityResponse = components['schemas']['EligibilityResponse'];
`;

/** Compiles the files beside a copy of api.d.ts in strict mode, in one compiler run; its diagnostics per file. */
function compile(files: Record<string, string>): { status: number | null; diagnostics: Record<string, string[]> } {
  const dir = mkdtempSync(join(tmpdir(), 'typed-client-'));
  try {
    copyFileSync(`${root}examples/typescript/api.d.ts`, join(dir, 'api.d.ts'));
    for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), HEADER + source);
    const flags = [
      '--ignoreConfig',
      '--strict',
      '--noEmit',
      '--noUncheckedIndexedAccess',
      '--target',
      'es2022',
      '--module',
      'esnext',
      '--moduleResolution',
      'bundler',
    ];
    const run = spawnSync(tsc, [...flags, ...Object.keys(files).map((name) => join(dir, name))], { encoding: 'utf8', timeout: 90_000 });
    const lines = `${run.stdout}${run.stderr}`.split('\n').filter((line) => line.includes(': error TS'));
    const diagnostics = Object.fromEntries(
      Object.keys(files).map((name) => [name, lines.filter((line) => line.includes(name)).map((line) => line.slice(line.indexOf(name)))]),
    );
    return { status: run.status, diagnostics };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const REAL = `
export function summary(r: EligibilityResponse): string {
  if (r.message !== 'Eligibility check successful') return r.inNetwork.individual.copay;
  const first = r.benefits[0];
  return [
    r.benefits.length,
    r.coverageStatus,
    r.checkedAt,
    r.notices.length,
    r.otherPayers.length,
    r.inNetwork.individual.stopLossRemaining,
    r.subscriber.memberId ?? '',
    first ? first.inNetwork.family.stopLossRemaining : '',
  ].join(' ');
}
`;

const REFUSED = `
export const onUnion = (r: EligibilityResponse) => r.benefits.length;
export const onMock = (r: components['schemas']['MockEligibilityResponse']) => r.inNetwork.individual.stopLossRemaining;
`;

describe('generated client types (strict mode)', () => {
  const result = compile({ 'real.ts': REAL, 'refused.ts': REFUSED });

  it('type the keys of a real answer as present once message narrows it: r.benefits.length compiles', () => {
    expect(result.diagnostics['real.ts']).toEqual([]);
  });

  it('still refuse real-only keys on a mock answer and on the un-narrowed union (the check is live)', () => {
    expect(result.status).not.toBe(0);
    // TS2339: the property does not exist on the (mock) type; one per line of REFUSED (after the two header lines).
    expect(result.diagnostics['refused.ts']).toEqual([
      expect.stringMatching(/^refused\.ts\(4,\d+\): error TS2339: Property 'benefits' does not exist/),
      expect.stringMatching(/^refused\.ts\(5,\d+\): error TS2339: Property 'stopLossRemaining' does not exist/),
    ]);
  });
});
