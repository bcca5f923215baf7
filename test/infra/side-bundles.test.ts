/**
 * Side bundles (docs/deployment.md#side-bundles): code a function keeps out of its handler's bundle, built
 * as files of their own beside it by the stack's afterBundling hook (infra/deploy/functions.ts
 * SIDE_BUNDLES, sideBundleBuildCommands). Here each function's bundle asks for exactly the side bundles
 * its table lists, and those very commands run into an empty folder beside code built with the
 * function's own options, where a plain `node` (no TypeScript loader) uses each one: the letter's parse
 * worker reads notes, eligibility's printout draws the summary, and the Anthropic SDK answers a message.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import {
  bundleOptions,
  FUNCTION_NAMES,
  fontCopyCommands,
  type FunctionName,
  SIDE_BUNDLES,
  sideBundleBuildCommands,
  sideBundlesOf,
} from '../../infra/deploy/functions.js';
import { SHIPPED_MODULES, shipModulesCommands } from '../../infra/deploy/shipped-modules.js';
import { ALL_FONT_FILES } from '../../lib/pdf/index.js';
import { type FakeAnthropic, startFakeAnthropic } from '../support/anthropic-fake.js';
import { MOCK_SET_1 } from '../support/events.js';
import { pdfText } from '../support/pdf-tools.js';
import { PROCEDURE_NOTES_LINES, procedureNotesPdf, toBase64 } from '../fixtures/letter/pdfs.js';

const execFileAsync = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');

/** The files a bundle imports from beside itself: `new URL("./x.mjs", import.meta.url)`. */
const besideRefs = (code: string): string[] =>
  [...new Set([...code.matchAll(/new URL\("\.\/([\w.-]+\.mjs)", ?import\.meta\.url\)/g)].map((m) => m[1]!))].sort();

/** The repository files and packages that put bytes into a function's bundle. */
async function bundled(name: FunctionName): Promise<{ code: string; inputs: string[] }> {
  const result = await build({ ...bundleOptions(name), write: false, metafile: true, logLevel: 'silent', outdir: 'out' });
  const output = Object.values(result.metafile.outputs).find((entry) => entry.entryPoint !== undefined)!;
  const inputs = Object.entries(output.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path]) => path);
  return { code: result.outputFiles.find((file) => file.path.endsWith('.js'))!.text, inputs };
}

/** Runs `commands` (the stack's afterBundling ones, which write into a folder of the caller's). */
const run = (commands: string[]) => execFileSync('sh', ['-e', '-c', commands.join('\n')], { stdio: 'pipe' });
const emptyFolder = () => mkdtempSync(join(tmpdir(), 'side-bundles-'));

/** Builds `exports` (a line of TypeScript from the project root) with `name`'s options as index.mjs in `out`. */
async function codeBeside(out: string, name: FunctionName, exports: string): Promise<string> {
  const { entryPoints: _entry, ...options } = bundleOptions(name);
  await build({ ...options, stdin: { contents: exports, resolveDir: ROOT, loader: 'ts' }, outfile: join(out, 'index.mjs'), logLevel: 'silent' });
  return readFileSync(join(out, 'index.mjs'), 'utf8');
}

/**
 * Runs `script` as probe.mjs in `out` with a plain node and no environment but PATH; its stdout. Not
 * synchronously: a loopback fake in this process answers it.
 */
async function probe(out: string, script: string): Promise<string> {
  writeFileSync(join(out, 'probe.mjs'), script);
  const { stdout } = await execFileAsync(process.execPath, [join(out, 'probe.mjs')], { cwd: out, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  return stdout;
}

describe('side bundles', () => {
  it.each(FUNCTION_NAMES)(
    "%s's bundle asks for exactly the side modules its table lists, and holds none of their code",
    async (name) => {
      const { code, inputs } = await bundled(name);
      const modules = sideBundlesOf(name).filter((side) => side.kind === 'module');
      expect(besideRefs(code)).toEqual(modules.map((side) => side.bundledAs).sort());
      expect(inputs.filter((input) => modules.some((side) => input === side.entry))).toEqual([]);
    },
    60_000,
  );

  it('keep the PDF stack out of eligibility and the Anthropic SDK out of MCP, the card reader and the letter', async () => {
    const heavy = (inputs: string[], pattern: RegExp) => inputs.filter((input) => pattern.test(input));
    expect(heavy((await bundled('eligibility')).inputs, /node_modules\/(pdf-lib|fontkit|@pdf-lib)\//)).toEqual([]);
    for (const name of ['mcp', 'insurance-card', 'letter'] as const) {
      expect({ name, sdk: heavy((await bundled(name)).inputs, /node_modules\/@anthropic-ai\/sdk\//) }).toEqual({ name, sdk: [] });
    }
  }, 120_000);

  it("build the letter's pdf-worker.mjs beside its bundle, and the bundled code parses notes through it", async () => {
    expect(SIDE_BUNDLES.letter.filter((side) => side.kind === 'worker').map((side) => side.bundledAs)).toEqual(['pdf-worker.mjs']);
    const out = emptyFolder();
    try {
      run([...shipModulesCommands(SHIPPED_MODULES.letter, ROOT, out), ...sideBundleBuildCommands('letter', ROOT, out)]);
      expect(existsSync(join(out, 'pdf-worker.mjs'))).toBe(true);
      // The letter's intake, bundled with the letter's own options (as the handler's bundle holds it).
      await codeBeside(out, 'letter', "export { readProcedureNotes } from './lib/letter/index.ts';");
      writeFileSync(join(out, 'notes.txt'), toBase64(await procedureNotesPdf()));
      const read = JSON.parse(
        await probe(
          out,
          `import { readFileSync } from 'node:fs';
const { readProcedureNotes } = await import('./index.mjs');
const notes = await readProcedureNotes(readFileSync(new URL('notes.txt', import.meta.url), 'utf8'));
process.stdout.write(JSON.stringify(notes.ok ? { pages: notes.value.pages, text: notes.value.text } : notes.error));`,
        ),
      ) as { pages: number; text: string[] };
      expect(read.pages).toBe(1);
      expect(read.text[0]).toContain(PROCEDURE_NOTES_LINES[0]!.slice(0, 20));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);

  it("build eligibility's printout.mjs, and the bundled route draws the summary through it (and only through it)", async () => {
    const out = emptyFolder();
    try {
      run([...sideBundleBuildCommands('eligibility', ROOT, out), ...fontCopyCommands(ALL_FONT_FILES, ROOT, out)]);
      const code = await codeBeside(out, 'eligibility', "export { ELIGIBILITY_REPRESENTATIONS, mockEligibility } from './lib/eligibility/index.ts';");
      expect(code).not.toContain('PDFDocument');
      writeFileSync(join(out, 'request.json'), JSON.stringify(MOCK_SET_1));
      const draw = `import { readFileSync, writeFileSync } from 'node:fs';
const { ELIGIBILITY_REPRESENTATIONS, mockEligibility } = await import('./index.mjs');
const request = JSON.parse(readFileSync(new URL('request.json', import.meta.url), 'utf8'));
const pdf = await ELIGIBILITY_REPRESENTATIONS['application/pdf'](mockEligibility(request).body, request);
writeFileSync(new URL('summary.pdf', import.meta.url), pdf);`;
      await probe(out, draw);
      const text = await pdfText(new Uint8Array(readFileSync(join(out, 'summary.pdf'))));
      expect(text).toContain('Eligibility summary');
      expect(text).toContain('$20.00');
      // Without the file beside it, the bundle cannot draw: the PDF code is in printout.mjs alone.
      rmSync(join(out, 'printout.mjs'));
      await expect(probe(out, draw)).rejects.toThrow(/printout\.mjs/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);

  describe("the Anthropic SDK's anthropic-sdk.mjs", () => {
    let fake: FakeAnthropic;
    beforeAll(async () => {
      fake = await startFakeAnthropic();
      fake.answer([{ type: 'text', text: 'Hello from the fake.' }]);
    });
    afterAll(async () => {
      await fake?.close();
    });

    it('is loaded by the bundled client with its first message', async () => {
      const out = emptyFolder();
      try {
        run(sideBundleBuildCommands('mcp', ROOT, out));
        await codeBeside(out, 'mcp', "export { createMessage } from './lib/upstream/index.ts';");
        const ask = `const { createMessage } = await import('./index.mjs');
const answer = await createMessage({ apiKey: 'test-key', baseURL: ${JSON.stringify(fake.url)}, budgetMs: 20000,
  request: { model: 'claude-fake', max_tokens: 64, messages: [{ role: 'user', content: 'Hello?' }] } });
process.stdout.write(JSON.stringify(answer.ok ? answer.value.message.content : answer.failure));`;
        expect(JSON.parse(await probe(out, ask))).toEqual([expect.objectContaining({ type: 'text', text: 'Hello from the fake.' })]);
        rmSync(join(out, 'anthropic-sdk.mjs'));
        await expect(probe(out, ask)).rejects.toThrow(/anthropic-sdk\.mjs/);
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    }, 120_000);
  });
});
