/**
 * Letter PDF benchmark (not a test): median warm render time of 1-, 2- and 5-page Latin letters and
 * of a 2-page letter with CJK and Arabic names, and the cold import time of the letter pipeline as
 * one esbuild bundle run by a fresh `node` (no font is read at import); and the printable eligibility
 * summary's warm render (docs/api.md#printable-summary): a mock answer, and an answer of 100 services
 * and 30 notices cut to one page.
 * Run: npx tsx bench/pdf.ts  → prints and writes bench/results/pdf.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { eligibilityPdf, mockEligibility } from '../lib/eligibility/index.js';
import { parseLetterMarkdown, renderLetterPdfReport as renderReport } from '../lib/letter/index.js';
import { MOCK_PATIENTS } from '../lib/mock/index.js';
import { LETTER_META as meta } from '../test/fixtures/letter/metadata.js';
import { letterBody } from '../test/fixtures/letter/bodies.js';

const renderLetterPdfReport = (m: typeof meta, body: string, generatedAt: Date) =>
  renderReport({ meta: m, body: parseLetterMarkdown(body), citations: [], generatedAt });
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (n: number) => Math.round(n * 10) / 10;

/** Smallest body (in paragraphs) that renders to exactly `pages` pages. */
async function bodyFor(pages: number): Promise<string> {
  for (let paragraphs = 1; paragraphs < 200; paragraphs += 1) {
    const body = letterBody(paragraphs);
    if ((await renderLetterPdfReport(meta, body, new Date())).pages === pages) return body;
  }
  throw new Error(`no body gives ${pages} pages`);
}

/**
 * Wall time, and this process's CPU time over the same render: on a machine shared with other work
 * the wall figure grows with the load, the CPU figure much less (it is what an idle machine's wall
 * time would be, give or take garbage collection on helper threads).
 */
const render: Record<string, { medianMs: number; p90Ms: number; cpuMedianMs: number; runs: number }> = {};
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
async function time(name: string, m: typeof meta, body: string, vary?: (i: number) => typeof meta) {
  for (let i = 0; i < 15; i += 1) await renderLetterPdfReport(m, body, new Date()); // warm-up (fonts read, parsed, JIT)
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 41; i += 1) {
    const input = vary ? vary(i) : m;
    const started = performance.now();
    const cpuStarted = cpuMs();
    await renderLetterPdfReport(input, body, new Date());
    cpu.push(cpuMs() - cpuStarted);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  render[name] = { medianMs: round(median(times)), p90Ms: round(times[Math.floor(times.length * 0.9)]), cpuMedianMs: round(median(cpu)), runs: times.length };
}
for (const pages of [1, 2, 5]) await time(`${pages}-page`, meta, await bodyFor(pages));
// The same 2-page letter with a name holding a letter no earlier render used: its DejaVu subsets are
// encoded afresh (lib/pdf/fonts.ts keeps encoded subsets per glyph list; the runs above reuse them).
const LATIN_EXTENDED = Array.from({ length: 96 }, (_, i) => String.fromCodePoint(0x100 + i));
await time('2-page, new glyph each render', meta, await bodyFor(2), (i) => ({ ...meta, patient_name: `José Núñez-O'Brien ${LATIN_EXTENDED[(i + 41) % 96]}` }));
// A 2-page letter whose patient and facility names are Japanese and Arabic (shaped, bidi, CJK CFF subset).
const twoPages = await bodyFor(2);
await time('2-page CJK + Arabic names', { ...meta, patient_name: '山田 太郎 / محمد عبد الله', facility_name: 'مركز الشفاء 山田クリニック' }, twoPages);

// The printable eligibility summary: warm render of one page, from a mock answer and from a long answer.
const summary: Record<string, { medianMs: number; p90Ms: number; runs: number }> = {};
async function timeSummary(name: string, answer: unknown, request: (typeof MOCK_PATIENTS)[number]) {
  const asked = { ...request, mockRequest: true } as Parameters<typeof eligibilityPdf>[1];
  for (let i = 0; i < 10; i += 1) await eligibilityPdf(answer, asked);
  const times: number[] = [];
  for (let i = 0; i < 41; i += 1) {
    const started = performance.now();
    await eligibilityPdf(answer, asked);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  summary[name] = { medianMs: round(median(times)), p90Ms: round(times[Math.floor(times.length * 0.9)]), runs: times.length };
}
const patient = MOCK_PATIENTS[0]!;
const mock = mockEligibility(patient);
if (!mock.ok) throw new Error('mock set 1 did not answer');
await timeSummary('mock answer', mock.body, patient);
const block = mock.body.inNetwork;
const service = (i: number) => ({
  serviceType: { code: String(i), name: `Service ${i}` },
  status: 'Active',
  inNetwork: block,
  outNetwork: block,
  fromPlan: [],
  limitations: [],
  messages: [],
});
const long = {
  ...mock.body,
  coverageStatus: 'Active',
  payerName: 'SANDBOX HEALTH PPO',
  checkedAt: '2026-11-27T10:00:00.000Z',
  plan: { name: 'GOLD PPO 1500' },
  subscriber: { firstName: 'JOHN', lastName: 'DOE', memberId: patient.patientMemberId },
  benefits: Array.from({ length: 100 }, (_, i) => service(i + 1)),
  otherPayers: [],
  notices: Array.from({ length: 30 }, (_, i) => ({ code: 'PAYER_MESSAGE', message: `Notice ${i + 1} from the payer.` })),
};
await timeSummary('100 services, 30 notices', long, patient);

// Cold import: bundle the letter modules as Lambda would, then time a fresh node importing it.
const dir = mkdtempSync(join(tmpdir(), 'letter-bench-'));
const entry = join(dir, 'entry.ts');
writeFileSync(entry, `${['pipeline', 'route'].map((m) => `export * from ${JSON.stringify(join(root, 'lib/letter', `${m}.ts`))};`).join('\n')}\n`);
const bundle = join(dir, 'letter.mjs');
await build({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: bundle,
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  external: ['unpdf'], // shipped beside the bundle, as infra/deploy/stack.ts does
  logLevel: 'silent',
});
// Each probe prints its import's wall time and its whole process's CPU time; a bare probe gives Node's own CPU time.
const probe = `const t = performance.now(); await import(${JSON.stringify(bundle)}); const c = process.cpuUsage(); console.log(performance.now() - t, (c.user + c.system) / 1000);`;
const bareProbe = `const c = process.cpuUsage(); console.log(0, (c.user + c.system) / 1000);`;
const cold: number[] = [];
const coldCpu: number[] = [];
const bareCpu: number[] = [];
for (let i = 0; i < 7; i += 1) {
  const [wall, cpu] = execFileSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8' }).trim().split(' ').map(Number);
  cold.push(wall!);
  coldCpu.push(cpu!);
  bareCpu.push(Number(execFileSync(process.execPath, ['--input-type=module', '-e', bareProbe], { encoding: 'utf8' }).trim().split(' ')[1]));
}
const coldImportMs = round(median(cold));
/** CPU the import adds over a bare `node` (bootstrap excluded). */
const coldImportCpuOverBareMs = round(median(coldCpu) - median(bareCpu));

const results = {
  measuredAt: new Date().toISOString(),
  node: process.version,
  render,
  summary,
  coldImportMs,
  coldImportCpuOverBareMs,
  targets: { twoPageMedianMs: 25, cjkArabicMedianMs: 150, coldImportMs: 300 },
  pass: {
    twoPage: render['2-page'].medianMs <= 25,
    cjkArabic: render['2-page CJK + Arabic names'].medianMs <= 150,
    coldImport: coldImportMs <= 300,
  },
};
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, 'bench/results/pdf.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(JSON.stringify(results, null, 2));
