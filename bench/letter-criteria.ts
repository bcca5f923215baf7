/**
 * What a policy-grounded letter costs (docs/letter.md#figures), written to bench/results/letter-criteria.json:
 *  - the letter against the local Messages API sandbox, for the sample notes alone, notes + policy,
 *    and notes + policy + denial (an appeal): median wall time of the whole pipeline and the tokens the
 *    sandbox reports (its own count: a quarter of the request's bytes, not the real tokenizer);
 *  - an offline estimate of what the real API would bill for the same requests: the request's text
 *    (system prompt, instructions, metadata) and each PDF page's text at ~3.5 characters a token,
 *    plus each page's image at Anthropic's documented w×h/750 for a page resized to 1.15 megapixels
 *    (~1,533 tokens). The exact figure needs `messages.countTokens` against the real API, which this
 *    bench cannot reach; the estimate says so in its name;
 *  - the PDF render time of a 3-page letter with a criteria table (and the same letter without it).
 * Run: npx tsx bench/letter-criteria.ts
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMessagesSandbox } from '../infra/dev/sandbox/messages-api.js';
import { SAMPLE_DENIAL_PAGES, SAMPLE_FILES, SAMPLE_NOTES_PAGES, SAMPLE_POLICY_PAGES } from '../infra/dev/sandbox/sample-documents.js';
import { fixedClock } from '../lib/config/index.js';
import { buildLetterRequest, generateLetter, parseLetterMarkdown, renderLetterPdfReport, type LetterRecipe } from '../lib/letter/index.js';
import type { LetterRequest } from '../lib/validation/index.js';
import { letterBody } from '../test/fixtures/letter/bodies.js';
import { letterAiAt } from '../test/support/anthropic-fake.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round = (n: number) => Math.round(n * 10) / 10;
const b64 = (file: URL) => readFileSync(file).toString('base64');

const base: LetterRequest = {
  file_content: b64(SAMPLE_FILES.notes),
  patient_identifier: 'PAT-0214',
  patient_name: 'Ana Silva',
  patient_age: '58',
  facility_name: 'Lakeside Spine Center',
  visit_cost: '$41,200.00',
  provider_email: 'spine@lakeside.example',
  provider_phone: '+1 555 0100',
  provider_signature: '/s/ R. Okafor',
  provider_name: 'Rita Okafor, MD',
};
const CASES: Record<string, { request: LetterRequest; pages: string[][][] }> = {
  'notes only': { request: base, pages: [SAMPLE_NOTES_PAGES] },
  'notes + policy': {
    request: { ...base, policy_file_content: b64(SAMPLE_FILES.policy), policy_name: 'MP-214 Lumbar Spinal Fusion' },
    pages: [SAMPLE_NOTES_PAGES, SAMPLE_POLICY_PAGES],
  },
  'appeal: notes + policy + denial': {
    request: { ...base, letter_type: 'appeal', policy_file_content: b64(SAMPLE_FILES.policy), denial_file_content: b64(SAMPLE_FILES.denial) },
    pages: [SAMPLE_NOTES_PAGES, SAMPLE_POLICY_PAGES, SAMPLE_DENIAL_PAGES],
  },
};

/** Anthropic's image formula for a US Letter page resized to at most 1.15 megapixels. */
const PAGE_IMAGE_TOKENS = Math.round(1_150_000 / 750);
const CHARS_PER_TOKEN = 3.5;

/** What bench/letter-criteria.json holds (bench/run.ts reads it). */
export interface LetterCriteriaReport {
  letters: Record<
    string,
    { sandboxMedianMs: number; sandboxInputTokens: number; sandboxOutputTokens: number; documentPages: number; estimatedBilledInputTokens: number }
  >;
  pdf: { pages: number; criteria: number; medianMs: number; withoutTableMedianMs: number; runs: number };
  notMeasured: string;
}

const sandbox = await startMessagesSandbox();
const ai = letterAiAt(sandbox.url, { key: 'bench', id: 'claude-sandbox', budgetMs: 30_000 });
const letters: LetterCriteriaReport['letters'] = {};
let policyRecipe: LetterRecipe | undefined;
for (const [name, { request, pages }] of Object.entries(CASES)) {
  const times: number[] = [];
  let usage = { inputTokens: 0, outputTokens: 0 };
  for (let i = 0; i < 9; i += 1) {
    const started = performance.now();
    const { result, log, recipe } = await generateLetter(request, ai, fixedClock('2026-03-09T09:00:00Z'));
    times.push(performance.now() - started);
    if (!result.ok) throw new Error(`${name}: ${result.error.code}`);
    usage = { inputTokens: Number(log.inputTokens ?? 0), outputTokens: Number(log.outputTokens ?? 0) };
    if (name === 'notes + policy') policyRecipe = recipe;
  }
  // The offline estimate: the request's own text (the system prompt and the user text block) and every document page.
  const documents = request.policy_file_content
    ? {
        letterType: request.letter_type ?? ('medical_necessity' as const),
        policy: { base64: '', ...(request.policy_name ? { name: request.policy_name } : {}) },
        ...(request.denial_file_content ? { denial: { base64: '' } } : {}),
      }
    : undefined;
  const built = buildLetterRequest('m', '', request, documents);
  const promptChars = JSON.stringify(built.system).length + JSON.stringify(built.messages).length;
  const pageCount = pages.reduce((sum, document) => sum + document.length, 0);
  const pageTextChars = pages.flat(2).join('\n').length;
  letters[name] = {
    sandboxMedianMs: round(median(times)),
    sandboxInputTokens: usage.inputTokens,
    sandboxOutputTokens: usage.outputTokens,
    documentPages: pageCount,
    estimatedBilledInputTokens: Math.round((promptChars + pageTextChars) / CHARS_PER_TOKEN) + pageCount * PAGE_IMAGE_TOKENS,
  };
}
await sandbox.close();

// A 3-page letter with its criteria table: the sandbox's policy-grounded answer, its body padded until the PDF has 3 pages.
if (!policyRecipe) throw new Error('no policy-grounded letter');
const content = (kept: number, paragraphs: number) => ({
  ...policyRecipe!.content,
  body: [...policyRecipe!.content.body.slice(0, kept), ...parseLetterMarkdown(letterBody(paragraphs))],
  generatedAt: new Date(policyRecipe!.content.generatedAt),
});
// Fewer of the answer's blocks until it fits 3 pages, then filler paragraphs until it fills them.
let kept = policyRecipe.content.body.length;
while (kept > 0 && (await renderLetterPdfReport(content(kept, 0))).pages > 3) kept -= 1;
let paragraphs = 0;
while ((await renderLetterPdfReport(content(kept, paragraphs))).pages < 3) paragraphs += 1;
const threePages = content(kept, paragraphs);
const timeRenders = async (letter: typeof threePages) => {
  for (let i = 0; i < 10; i += 1) await renderLetterPdfReport(letter);
  const times: number[] = [];
  for (let i = 0; i < 31; i += 1) {
    const started = performance.now();
    await renderLetterPdfReport(letter);
    times.push(performance.now() - started);
  }
  return round(median(times));
};
const report: LetterCriteriaReport = {
  letters,
  pdf: {
    pages: (await renderLetterPdfReport(threePages)).pages,
    criteria: policyRecipe.criteria?.length ?? 0,
    medianMs: await timeRenders(threePages),
    withoutTableMedianMs: await timeRenders({ ...threePages, payer: undefined }),
    runs: 31,
  },
  notMeasured: 'The real API bill (messages.countTokens) and its latency: the real API cannot be reached from here.',
};
console.log(JSON.stringify(report, null, 2));
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, 'bench/results/letter-criteria.json'), `${JSON.stringify(report, null, 2)}\n`);
