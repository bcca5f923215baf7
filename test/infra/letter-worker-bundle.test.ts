/**
 * The letter's parse worker ships with its bundle (docs/deployment.md#worker-threads): esbuild does not
 * follow `new Worker(...)`, so the stack's afterBundling hook builds lib/letter/intake/pdf-worker.mjs as
 * pdf-worker.mjs beside the handler (infra/cdk/functions.ts workerBuildCommands). Here those very
 * commands run into an empty folder beside a bundle built with the letter's options, with unpdf
 * shipped as the stack ships it, and a plain `node` (no TypeScript loader) reads a PDF through it.
 */
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { bundleOptions, workerBuildCommands, WORKERS } from '../../infra/deploy/functions.js';
import { SHIPPED_MODULES, shipModulesCommands } from '../../infra/deploy/shipped-modules.js';
import { PROCEDURE_NOTES_LINES, procedureNotesPdf, toBase64 } from '../fixtures/letter/pdfs.js';

const ROOT = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');

describe('the letter bundle and its parse worker', () => {
  it('builds pdf-worker.mjs beside the bundle, and the bundled code parses notes through it', async () => {
    expect(WORKERS.letter.map((worker) => worker.bundledAs)).toEqual(['pdf-worker.mjs']);
    const out = mkdtempSync(join(tmpdir(), 'letter-worker-'));
    try {
      execFileSync('sh', ['-e', '-c', [...shipModulesCommands(SHIPPED_MODULES.letter, ROOT, out), ...workerBuildCommands('letter', ROOT, out)].join('\n')], {
        stdio: 'pipe',
      });
      expect(existsSync(join(out, 'pdf-worker.mjs'))).toBe(true);
      // The letter's intake, bundled with the letter's own options (as the handler's bundle holds it).
      const { entryPoints: _entry, ...options } = bundleOptions('letter');
      await build({
        ...options,
        stdin: { contents: "export { readProcedureNotes } from './lib/letter/index.ts';", resolveDir: ROOT, loader: 'ts' },
        outfile: join(out, 'index.mjs'),
        logLevel: 'silent',
      });
      writeFileSync(join(out, 'notes.txt'), toBase64(await procedureNotesPdf()));
      writeFileSync(
        join(out, 'probe.mjs'),
        `import { readFileSync } from 'node:fs';
const { readProcedureNotes } = await import('./index.mjs');
const notes = await readProcedureNotes(readFileSync(new URL('notes.txt', import.meta.url), 'utf8'));
process.stdout.write(JSON.stringify(notes.ok ? { pages: notes.value.pages, text: notes.value.text } : notes.error));`,
      );
      const read = JSON.parse(
        execFileSync(process.execPath, [join(out, 'probe.mjs')], { cwd: out, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } }),
      ) as {
        pages: number;
        text: string[];
      };
      expect(read.pages).toBe(1);
      expect(read.text[0]).toContain(PROCEDURE_NOTES_LINES[0]!.slice(0, 20));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
