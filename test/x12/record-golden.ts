/**
 * Records the interpret271 golden answers that golden.test.ts holds every later reader to, byte for
 * byte (JSON.stringify output, key order included). Run only to pin a known-good version:
 *
 *   npx tsx test/x12/record-golden.ts [--tests capture.jsonl]
 *
 * With X12_CORPUS=<dir> (default ../shared/corpus/x12 beside the repo) the corpus answers are
 * recorded too. `--tests` replaces the captured test replies of replies.json with a capture: a
 * file of {"x12", "question"} lines, one per interpret271 call, written by a test run of
 * test/eligibility, test/sandbox, test/upstream, test/cob, test/faults, test/http and test/local
 * with a one-line appendFileSync added (and removed again) at the top of interpret271. The
 * sandbox clearinghouse's replies (one per patient of infra/dev/sandbox/patients.ts, asked as the API
 * would ask) are rewritten on every run.
 *
 * Files under test/fixtures/x12/golden/:
 * - fixtures.json: the fixture cases; base cases keep both answers in full (readable diffs), their
 *   variants a digest of both;
 * - damage.json: digests of the seeded damage of the fixtures;
 * - replies.json (inputs) and replies-golden.json: sandbox replies in full, test replies as digests;
 * - corpus.json: digests of the corpus cases and of their seeded damage (no corpus text is copied);
 * - corpus-aaa.json: per corpus 271, its AAAs as the answer lists them (corpus.test.ts reads it).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { interpret271 } from '../../lib/eligibility/interpret.js';
import type { EligibilityQuestion } from '../../lib/eligibility/types.js';
import type { Inquiry270 } from '../../infra/dev/sandbox/read270.js';
import { write271, write999 } from '../../infra/dev/sandbox/reply271.js';
import { SANDBOX_PATIENTS } from '../../infra/dev/sandbox/patients.js';
import { usDateToD8 } from '../../lib/validation/formats.js';
import {
  aaaAnswerOf,
  corpusCases,
  corpusDamage,
  corpusPresent,
  corpusSources,
  DEFAULT_QUESTION,
  digest,
  fixtureCases,
  fixtureDamage,
  GOLDEN_DIR,
  GOLDEN_QUESTION,
  type Case,
  type Reply,
} from './golden-cases.js';

/** Both answers of a case: the one recorded for GOLDEN_QUESTION, then DEFAULT_QUESTION's. */
export const answers = (text: string) => ({ golden: interpret271(text, GOLDEN_QUESTION), default: interpret271(text, DEFAULT_QUESTION) });

const write = (file: string, value: unknown): void => writeFileSync(`${GOLDEN_DIR}${file}`, `${JSON.stringify(value, null, 1)}\n`);

function digests(cases: readonly Case[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of cases) out[c.name] = digest(answers(c.text));
  return out;
}

/** The sandbox clearinghouse's reply for each patient, asked for the patient as the API would. */
function sandboxReplies(): Reply[] {
  const clock = { date: '20250301', time: '0900' };
  const out: Reply[] = [];
  for (const patient of SANDBOX_PATIENTS) {
    const inquiry: Inquiry270 = {
      senderId: 'ELIGIBILITYAPI',
      receiverId: 'SANDBOXCH',
      interchangeControlNumber: '000000101',
      groupControlNumber: '101',
      transactionControlNumber: '0001',
      submitterReference: 'REF101',
      payerName: patient.payerName,
      payerId: patient.payerId,
      provider: ['1P', '2', 'TEST CLINIC', '', '', '', '', 'XX', '1234567893'],
      trace: { number: 'TRACE101', originator: '9ELIGIBAPI' },
      lastName: patient.lastName.toUpperCase(),
      firstName: patient.firstName.toUpperCase(),
      memberId: patient.memberId,
      dateOfBirth: usDateToD8(patient.dob),
      dateOfService: '20250301',
      serviceTypes: ['30'],
      procedures: [],
    };
    const question: EligibilityQuestion = { memberId: patient.memberId, dateOfCoverage: '20250301' };
    const name = `sandbox:${patient.memberId}`;
    out.push({ name, x12: write271(inquiry, patient, clock), question });
    if (patient.fault === 'truncated-271') out.push({ name: `${name}:truncated`, x12: write271(inquiry, patient, clock, { truncate: true }), question });
    if (patient.fault === 'reply-999') out.push({ name: `${name}:999`, x12: write999(inquiry, clock), question });
  }
  return out;
}

/** Test replies: from a capture when given, else the ones replies.json already holds. */
function testReplies(): Reply[] {
  const at = process.argv.indexOf('--tests');
  if (at < 0) {
    const file = `${GOLDEN_DIR}replies.json`;
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Reply[]).filter((r) => r.name.startsWith('test:')) : [];
  }
  const seen = new Map<string, { x12: string; question: EligibilityQuestion }>();
  for (const line of readFileSync(process.argv[at + 1]!, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const call = JSON.parse(line) as { x12: string; question: EligibilityQuestion };
    const key = createHash('sha256').update(line).digest('hex').slice(0, 12);
    seen.set(key, call);
  }
  return [...seen.keys()].sort().map((key) => ({ name: `test:${key}`, ...seen.get(key)! }));
}

const fixtures: Record<string, unknown> = {};
for (const c of fixtureCases()) fixtures[c.name] = c.name.includes('#') ? digest(answers(c.text)) : answers(c.text);
write('fixtures.json', fixtures);
console.log(`fixtures: ${Object.keys(fixtures).length} cases`);

const damage = digests(fixtureDamage());
write('damage.json', damage);
console.log(`damage: ${Object.keys(damage).length} cases`);

const replies = [...sandboxReplies(), ...testReplies()];
write('replies.json', replies);
const replyAnswers: Record<string, unknown> = {};
for (const r of replies) {
  const answer = interpret271(r.x12, r.question);
  replyAnswers[r.name] = r.name.startsWith('sandbox:') ? answer : digest(answer);
}
write('replies-golden.json', replyAnswers);
console.log(`replies: ${replies.length}`);

if (corpusPresent()) {
  const corpus = { ...digests(corpusCases()), ...digests(corpusDamage()) };
  write('corpus.json', corpus);
  console.log(`corpus: ${Object.keys(corpus).length} cases`);
  const aaa: Record<string, unknown> = {};
  for (const c of corpusSources().filter((source) => source.name.endsWith('.271'))) aaa[c.name] = aaaAnswerOf(interpret271(c.text));
  write('corpus-aaa.json', aaa);
  console.log(`corpus AAAs: ${Object.keys(aaa).length} files`);
}
