/**
 * One measurement for bench/letter-hostile.ts, in a fresh process so memory starts clean:
 *   notes <shape>          readProcedureNotes on a hostile or bounded PDF (test/fixtures/letter/hostile-pdfs.ts)
 *   flood <url>            a whole letter whose model (the fake at <url>) streams 20 MB of text
 *   citations <url>        a whole letter whose model cites 20,000 sentences with numbers
 * Prints one JSON line: the outcome, CPU time of the call (user + system, every thread), and how much
 * the resident size grew (peak, read from /proc by the parent).
 */
import { generateLetter, readProcedureNotes } from '../lib/letter/index.js';
import { BOUNDED_PDFS, HOSTILE_PDFS, type HostileShape } from '../test/fixtures/letter/hostile-pdfs.js';
import { NUMBERED_LINES } from '../test/fixtures/letter/model-answers.js';
import { procedureNotesPdf } from '../test/fixtures/letter/pdfs.js';
import { letterAiAt } from '../test/support/anthropic-fake.js';
import { lakesideLetterRequest } from '../test/fixtures/letter/metadata.js';

const [mode, arg] = process.argv.slice(2) as [string, string];

async function run(): Promise<{ outcome: string; fileBytes?: number }> {
  if (mode === 'notes') {
    const file = BOUNDED_PDFS[arg]?.() ?? HOSTILE_PDFS[arg as HostileShape].make();
    const result = await readProcedureNotes(file.toString('base64'));
    return { outcome: result.ok ? `accepted (${result.value.pages} page)` : `${result.error.status} ${result.error.message}`, fileBytes: file.length };
  }
  const notes = mode === 'citations' ? await procedureNotesPdf(NUMBERED_LINES) : await procedureNotesPdf();
  const { result } = await generateLetter(lakesideLetterRequest(Buffer.from(notes).toString('base64')), letterAiAt(arg, { budgetMs: 60_000 }));
  return {
    outcome: result.ok
      ? `200, ${result.value.citations.length} citations, ${result.value.codes.cpt.length} CPT codes`
      : `${result.error.status} ${result.error.code}`,
  };
}

const rssBefore = process.memoryUsage().rss;
const cpuBefore = process.cpuUsage();
const started = performance.now();
const { outcome, fileBytes } = await run();
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(
  `${JSON.stringify({
    mode,
    arg: mode === 'notes' ? arg : undefined,
    fileBytes,
    outcome,
    ms: Math.round(performance.now() - started),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    rssBeforeMiB: Math.round(rssBefore / 1024 / 1024),
  })}\n`,
);
process.exit(0);
