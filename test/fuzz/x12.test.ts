import { describe, it, expect } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { interpret271 } from '../../lib/eligibility/interpret.js';
import type { EligibilityQuestion } from '../../lib/eligibility/types.js';
import { response271 } from '../fixtures/x12/build.js';
import { answerProblem } from '../support/answer-shape.js';
import { rng, seedFromEnv, type Rng } from './generate.js';
import { CORPUS_DIR, corpusPresent } from '../x12/golden-cases.js';

/**
 * 271 fuzzing: thousands of mutated replies (segments dropped, duplicated, swapped and truncated,
 * delimiters changed, bytes and Unicode inserted, elements blown up, BOMs and line breaks, AAA and
 * HL segments injected) through interpret271, the one entry the handler calls. It must never throw
 * and always return a Result whose error, when there is one, is in the error table (docs/api.md#errors) for a
 * payer answer (422 PAYER_REJECTED, 503 PAYER_UNAVAILABLE, 502 UPSTREAM_ERROR), whose answer keeps
 * every key of docs/eligibility.md in shape (test/support/answer-shape.ts: blocks, plan, people,
 * benefits, procedures, other payers, notices), and whose warnings are strings. Bounded by count and time; reproducible with FUZZ_SEED (printed on failure).
 */
const SEED = seedFromEnv();
const COUNT = Number(process.env.FUZZ_X12_COUNT ?? 5_000);
const TIME_MS = Number(process.env.FUZZ_X12_MS ?? 5_000);

const fixturesDir = fileURLToPath(new URL('../fixtures/x12/', import.meta.url));
// The shared corpus when present (absent on a fresh clone): the one location the golden cases use.
const corpusDir = corpusPresent() ? CORPUS_DIR : undefined;
const read = (dir: string | undefined) =>
  dir !== undefined && existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.271'))
        .map((f) => readFileSync(join(dir, f), 'utf8'))
    : [];

const SEEDS: string[] = [
  ...read(fixturesDir),
  ...read(corpusDir),
  response271([
    'EB*1**30**GOLD PPO',
    'EB*B*IND*98*PR**27*25*****Y',
    'EB*C*FAM*30*PR**23*3000*****Y',
    'EB*A*IND*30*PR***.2****N',
    'EB*G*IND*30*PR**23*6000*****W',
  ]),
  response271(['EB*1*FAM*30', 'EB*C*IND*30***29*600*****Y', 'EB*C*IND*30***24*2500*****N'], { dependent: true }),
  response271(['AAA*N**72*C', 'EB*6**30']),
  // The revision-2 parts: plan sections, dated rows, fillers, Part B 96, per-service rows, procedures, other payers.
  response271(
    [
      'EB*1**30^33^AL*PR*GOLD PPO',
      'EB*C*IND*30***23*1000*****Y',
      'DTP*292*RD8*20240101-20241231',
      'EB*C*IND*30***23*1500*****Y',
      'EB*G*IND*30***23*99999.99*****Y',
      'EB*G*IND*30***29*99999.99*****Y',
      'EB*G*FAM*30***23*12000*****Y',
      'EB*B*IND*33***27*40****Y*Y',
      'MSG*PRIOR AUTH AFTER 12 VISITS',
      'EB*F*IND*33***23***VS*20**Y',
      'EB*B*IND*98***27*25*****Y*HC:99213',
      'EB*I**AL',
      'EB*R**30*HN',
      'DTP*290*RD8*20250101-20251231',
      'REF*IG*MAP1',
      'LS*2120',
      'NM1*PRP*2*MA PLAN*****PI*MAP',
      'LE*2120',
      'EB*1**30^AL*PR*VISION PLUS',
      'EB*G*IND*30***23*0*****N',
    ],
    { subscriber: ['REF*6P*GRP1*ACME', 'REF*18*PLN', 'DTP*346*D8*20250101', 'DTP*347*D8*99991231', 'DTP*356*D8*20190101'] },
  ),
  response271(['EB*1**30*MA', 'EB*1**30*MB', 'EB*C**96*MB**23*257', 'EB*C**96*MB**29*0', 'EB*A**96*MB****.2'], {
    dependent: true,
    dependentSegments: ['INS*N*19'],
  }),
];

/** What every fuzz case asks: a date, explicit services and procedures (so every part of the answer is built). */
const QUESTION: EligibilityQuestion = {
  dateOfCoverage: '20250315',
  memberId: 'W000000001',
  serviceTypeCodes: ['30', '33', 'UC'],
  procedureCodes: ['99213', 'D0120'],
};

const ALLOWED = new Map([
  [422, 'PAYER_REJECTED'],
  [503, 'PAYER_UNAVAILABLE'],
  [502, 'UPSTREAM_ERROR'],
]);

const INJECT = [
  'AAA*N**42*R',
  'AAA*Y**79*C',
  'AAA*N**80*R',
  'AAA*N**ZZ*Q',
  'HL*9*99*22*0',
  'HL*1**20*1',
  'HL***',
  'EB*1',
  'EB*B*IND*98*PR**27*-5*****Y',
  'EB*C*FAM*30*PR**23*1e309',
  'EB*A*IND*30***.2.2',
  'EB*C**30***24*abc',
  'ST*271*0002',
  'SE*1',
  'IEA*1',
  'GS*HB',
  'ST*999*0001',
  `NM1*IL*1*${'X'.repeat(5000)}`,
  'DTP*346*D8*20251399',
  'LS*2120',
  'LE*2120',
  `MSG*${'💥'.repeat(100)}`,
  'DTP*292*RD8*20250401-20250101',
  'DTP*291*RD8*-',
  'DTP*347*D8*00000000',
  'EB*R',
  'EB*R**30*ZZ',
  'NM1*PRP*2',
  'NM1*TTP*2*X*****MI*',
  'REF*IG',
  'REF*6P',
  'INS*N',
  'DMG*D8*2024',
  'EB*F**33***23*99999***VS*1e9',
  'EB*F*FAM*33***xx**1.5.5*VS*-3',
  'EB*B*IND*30***27*999999.99',
  `EB*1**30**${'P'.repeat(300)}`,
  'EB*C**96*MB**23*0',
  `EB*B*IND*${Array.from({ length: 150 }, (_, i) => `Z${i}`).join('^')}***27*5`,
  'EB*B*IND*30***27*5*****Y*HC',
  'EB*B*IND*30***27*5*****Y*:::',
];

function mutate(r: Rng, x12: string): string {
  // Work on segments split by the file's own terminator (ISA106), else '~'.
  const terminator = x12.startsWith('ISA') && x12.length > 105 ? x12[105]! : '~';
  let segments = x12.split(terminator);
  const rounds = 1 + r.int(4);
  for (let i = 0; i < rounds; i++) {
    const at = r.int(Math.max(1, segments.length));
    switch (r.int(12)) {
      case 0:
        segments.splice(at, 1 + r.int(3));
        break;
      case 1:
        segments.splice(at, 0, ...segments.slice(at, at + 1 + r.int(3)));
        break;
      case 2: {
        const other = r.int(Math.max(1, segments.length));
        [segments[at], segments[other]] = [segments[other]!, segments[at]!];
        break;
      }
      case 3:
        segments = segments.slice(0, at);
        break;
      case 4:
        segments.splice(at, 0, r.pick(INJECT));
        break;
      case 5: {
        // Blow up, empty or retype one element.
        const elements = (segments[at] ?? '').split('*');
        const e = r.int(Math.max(1, elements.length));
        elements[e] = r.pick(['', 'X'.repeat(r.pick([100, 10_000])), '^^^', ':::', '-1', '99999999999999999999', '\u0000', 'é', '\ud800']);
        segments[at] = elements.join('*');
        break;
      }
      case 6:
        segments[at] = (segments[at] ?? '').slice(0, r.int((segments[at] ?? '').length + 1));
        break;
      default:
        break;
    }
  }
  let text = segments.join(terminator);
  switch (r.int(10)) {
    case 0:
      return `\uFEFF${text}`;
    case 1:
      return text.replaceAll(terminator, `${terminator}\r\n`);
    case 2: {
      const at = r.int(text.length + 1);
      return text.slice(0, at);
    }
    case 3: {
      const at = r.int(text.length + 1);
      return `${text.slice(0, at)}${String.fromCharCode(r.int(0x10000))}${text.slice(at)}`;
    }
    case 4:
      // A different element separator than ISA declares, or a changed ISA itself.
      return text.replace(/\*/g, r.pick(['|', '^', '*', '~']));
    case 5:
      return text.slice(0, 3) + r.pick(['|', '^', ':', '~', '\n']) + text.slice(4);
    default:
      text = text.length > 0 && r.chance(0.1) ? text.repeat(2) : text;
      return text;
  }
}

describe(`271 parser fuzzing (seed ${SEED})`, () => {
  it('survives every mutated 271 with a documented outcome and never throws', () => {
    const r = rng(SEED);
    const problems: string[] = [];
    const outcomes: Record<string, number> = {};
    const deadline = Date.now() + TIME_MS;
    let ran = 0;
    for (; ran < COUNT && Date.now() < deadline; ran++) {
      const input = mutate(r, r.pick(SEEDS));
      let problem: string | undefined;
      try {
        const { result, warnings, aaaCodes } = interpret271(input, QUESTION);
        if (!Array.isArray(warnings) || warnings.some((w) => typeof w !== 'string')) problem = 'warnings not strings';
        else if (!Array.isArray(aaaCodes)) problem = 'aaaCodes not an array';
        else if (result.ok) {
          const shape = answerProblem(result.value, QUESTION);
          if (shape) problem = `answer outside docs/eligibility.md#the-response: ${shape}`;
          outcomes.ok = (outcomes.ok ?? 0) + 1;
        } else {
          const error = result.error as { status: number; code?: string; message?: string };
          if (ALLOWED.get(error.status) !== error.code || typeof error.message !== 'string') problem = `error ${error.status} ${error.code}`;
          outcomes[error.code ?? String(error.status)] = (outcomes[error.code ?? String(error.status)] ?? 0) + 1;
        }
      } catch (error) {
        problem = `threw ${(error as Error)?.name}: ${(error as Error)?.message?.slice(0, 120)}`;
      }
      if (problem && problems.length < 5) problems.push(`case #${ran} (${input.length} chars): ${problem}`);
    }
    if (process.env.BENCH_VERBOSE) console.log(`fuzz 271: ${ran} cases`, outcomes);
    expect({ seed: SEED, problems }).toEqual({ seed: SEED, problems: [] });
    expect(ran).toBeGreaterThanOrEqual(Math.min(COUNT, 500));
    // The mutations are mild enough that some replies still read, and harsh enough that some do not.
    expect(outcomes.ok ?? 0).toBeGreaterThan(0);
    expect(outcomes.UPSTREAM_ERROR ?? 0).toBeGreaterThan(0);
  }, 30_000);

  it('the shape check accepts a real answer and catches answers outside the documented shape', () => {
    const { result } = interpret271(SEEDS[SEEDS.length - 2]!, QUESTION);
    if (!result.ok) throw new Error('seed does not read');
    expect(answerProblem(result.value, QUESTION)).toBeUndefined();
    const broken = (change: (a: Record<string, any>) => void) => {
      const copy = JSON.parse(JSON.stringify(result.value)) as Record<string, any>;
      change(copy);
      return answerProblem(copy, QUESTION);
    };
    expect(broken((a) => (a.inNetwork.individual.copay = '$99,999.9'))).toBeDefined();
    expect(broken((a) => delete a.inNetwork.family.stopLossRemaining)).toBeDefined();
    expect(broken((a) => (a.benefits[0].status = 'Covered'))).toBeDefined();
    expect(broken((a) => (a.plan.planBegin = '20250101'))).toBeDefined();
    expect(broken((a) => (a.notices = [{ code: 'OTHER', message: 'x' }]))).toBeDefined();
    expect(broken((a) => (a.otherPayers[0].extra = 1))).toBeDefined();
    expect(broken((a) => a.procedures.pop())).toBeDefined();
  });
});
