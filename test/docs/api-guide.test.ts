import { describe, expect, it } from '@jest/globals';
import { execFile, spawnSync } from 'node:child_process';
import { AUTHORIZER_CACHE_SECONDS } from '../../lib/auth/tokens.js';
import { ERROR_TABLE } from '../../lib/errors/index.js';
import { ROUTE_TABLE } from '../../lib/http/routes.js';
import { startLocalApi } from '../support/local-api.js';
import { readRepoFile as read, ROOT, slugsOf } from '../support/repo-docs.js';

/** docs/api.md covers every route and error code; the README links every guide; the Python example runs. */

describe('docs/api.md', () => {
  const guide = read('docs/api.md');

  it('names every route and every error code', () => {
    for (const route of ROUTE_TABLE) expect([route.path, guide.includes(`\`${route.method} ${route.path}\``)]).toEqual([route.path, true]);
    for (const code of Object.keys(ERROR_TABLE)) expect([code, guide.includes(`\`${code}\``)]).toEqual([code, true]);
  });

  it('says in its token paragraph how long a locally revoked token keeps working (the local authorizer cache)', () => {
    const tokens = guide.slice(guide.indexOf('## Tokens'), guide.indexOf('## Enrollment'));
    expect(tokens).toContain(`keeps working for up to\n  **${AUTHORIZER_CACHE_SECONDS} s**`);
  });

  it('has the headings its table of contents links to', () => {
    const linked = [...guide.matchAll(/\]\(#([a-z0-9-]+)\)/g)].map((m) => m[1]!);
    expect(linked.filter((anchor) => !slugsOf('docs/api.md').has(anchor))).toEqual([]);
  });
});

describe('README and docs/README.md', () => {
  it('link the four guides', () => {
    for (const doc of ['docs/api.md', 'docs/eligibility.md', 'docs/letter.md', 'docs/deployment.md']) {
      expect([doc, read('README.md').includes(`(${doc}`)]).toEqual([doc, true]);
      expect([doc, read('docs/README.md').includes(`(${doc.slice(5)})`)]).toEqual([doc, true]);
    }
  });
});

const hasPythonRequests = spawnSync('python3', ['-c', 'import requests'], { stdio: 'ignore' }).status === 0;

(hasPythonRequests ? describe : describe.skip)('examples/python/client.py (needs python3 with requests)', () => {
  it('calls the local server: health, mock eligibility, then a refused body with plain-words errors', async () => {
    const api = await startLocalApi();
    try {
      const output = await new Promise<string>((resolve, reject) => {
        execFile(
          'python3',
          [`${ROOT}examples/python/client.py`],
          { env: { ...process.env, API_URL: api.url, API_TOKEN: api.token }, timeout: 30_000 },
          (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
        );
      });
      expect(output).toContain('health: ok');
      expect(output).toContain('Mock Eligibility check successful. copay $20.00');
      expect(output).toContain('refused as expected: INVALID_REQUEST');
      expect(output).toContain('runCOBCheck: is not an allowed field');
    } finally {
      await api.close();
    }
  }, 60_000);
});
