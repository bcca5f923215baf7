/**
 * The letter's pdf.js (unpdf) ships beside its bundle, copied from the repository's node_modules by the
 * bundling step (infra/deploy/shipped-modules.ts) instead of an npm install at synth. The copy alone must be
 * enough for Node: the commands run into an empty folder, the letter bundle leaves unpdf external, and a
 * process in that folder imports unpdf (and its pdf.js subpath) and reads a PDF's text with it.
 */
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { bundleOptions, SIDE_BUNDLES, sideBundleOptions } from '../../infra/deploy/functions.js';
import { runtimeFiles, SHIPPED_MODULES, shipModulesCommands } from '../../infra/deploy/shipped-modules.js';
import { PROCEDURE_NOTES_LINES, procedureNotesPdf } from '../fixtures/letter/pdfs.js';

const ROOT = new URL('../../', import.meta.url).pathname;

describe('modules shipped beside a bundle', () => {
  it("are the letter's unpdf, with the files its exports reach for import, its manifest and licence", () => {
    expect(SHIPPED_MODULES).toEqual({ letter: ['unpdf'] });
    expect(runtimeFiles(join(ROOT, 'node_modules'), 'unpdf')).toEqual(['LICENSE', 'dist/index.mjs', 'dist/pdfjs.mjs', 'package.json']);
  });

  it('refuse a package with dependencies of its own (its copy alone would not run)', () => {
    expect(() => runtimeFiles(join(ROOT, 'node_modules'), 'ajv-formats')).toThrow('ajv-formats has dependencies of its own');
  });

  it("are copied without npm, and the copy alone serves the letter bundle's import of unpdf", async () => {
    const out = mkdtempSync(join(tmpdir(), 'shipped-'));
    try {
      execFileSync('sh', ['-e', '-c', shipModulesCommands(SHIPPED_MODULES.letter, ROOT.replace(/\/$/, ''), out).join('\n')]);
      // The letter's parse worker (bundled beside the handler, infra/deploy/functions.ts SIDE_BUNDLES) keeps
      // its import of unpdf and holds none of pdf.js; the handler holds none of it either.
      const worker = await build({ ...sideBundleOptions('letter', SIDE_BUNDLES.letter[0]), write: false, logLevel: 'silent' });
      const text = worker.outputFiles[0]!.text;
      expect(text).toMatch(/import\("unpdf"\)/);
      expect(text).not.toContain('GlobalWorkerOptions');
      const handler = await build({ ...bundleOptions('letter'), write: false, logLevel: 'silent' });
      expect(handler.outputFiles[0]!.text).not.toContain('GlobalWorkerOptions');
      writeFileSync(join(out, 'notes.pdf'), await procedureNotesPdf());
      writeFileSync(
        join(out, 'probe.mjs'),
        `import { readFileSync } from 'node:fs';
const { getDocumentProxy, extractText } = await import('unpdf');
const pdf = await getDocumentProxy(new Uint8Array(readFileSync(new URL('notes.pdf', import.meta.url))));
const { text } = await extractText(pdf, { mergePages: true });
process.stdout.write(text);`,
      );
      const read = execFileSync(process.execPath, [join(out, 'probe.mjs')], { cwd: out, encoding: 'utf8' });
      expect(read).toContain(PROCEDURE_NOTES_LINES[0]!.slice(0, 20));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});
