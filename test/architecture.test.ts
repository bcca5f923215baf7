import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

/**
 * House rules a reader relies on (docs/architecture.md): no module in lib/, functions/ or infra/
 * is over 400 lines (generated files aside), so each can be read whole. Import direction is checked
 * by `npm run lint` (dependency-cruiser), not here; test/dependency-rules.test.ts proves those rules
 * catch what they must.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const MAX_LINES = 400;

function modules(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return modules(path);
    return /\.(ts|cjs|mjs|js)$/.test(name) && !name.includes('.generated.') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('module size', () => {
  const files = ['lib', 'functions', 'infra'].flatMap(modules);

  it('finds the modules it checks', () => {
    expect(files).toContain('lib/http/pipeline.ts');
    expect(files).toContain('infra/dev/sandbox/patients.ts');
    expect(files.some((file) => file.includes('.generated.'))).toBe(false);
  });

  it(`keeps every module at ${MAX_LINES} lines or fewer`, () => {
    const long = files
      .map((file) => ({ file: relative(root, join(root, file)), lines: readFileSync(join(root, file), 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
