import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { missingOptionalPackages } from '../../infra/tools/npm/lock.js';

/** npm ci refuses a lock that lacks any optional platform package a locked package names (README, "Installing"). */
describe('package-lock.json', () => {
  it('locks every optional platform package, so npm ci accepts it on any platform', () => {
    const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8'));
    expect(missingOptionalPackages(lock)).toEqual([]);
  });

  it('the check finds a missing binary, looking in nested node_modules first and then up to the root', () => {
    const lock = {
      packages: {
        '': { optionalDependencies: {} },
        'node_modules/tool': { version: '1.0.0', optionalDependencies: { 'tool-darwin': '1.0.0', 'tool-linux': '1.0.0', shared: '2.0.0' } },
        'node_modules/tool/node_modules/tool-linux': { version: '1.0.0' },
        'node_modules/shared': { version: '2.0.0' },
        'node_modules/a/node_modules/b': { version: '1.0.0', optionalDependencies: { shared: '2.0.0', 'b-win32': '1.0.0' } },
      },
    };
    expect(missingOptionalPackages(lock)).toEqual([
      'tool-darwin@1.0.0 (wanted by node_modules/tool@1.0.0)',
      'b-win32@1.0.0 (wanted by node_modules/a/node_modules/b@1.0.0)',
    ]);
  });

  it('names in package.json allowScripts exactly the locked packages that have install scripts (npm 11 reviews them)', () => {
    const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { allowScripts?: Record<string, boolean> };
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(Object.keys(manifest.allowScripts ?? {}).sort()).toEqual([...new Set(withScripts)].sort());
  });
});
