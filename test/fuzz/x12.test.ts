import { describe, it, expect } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { interpret271 } from '../../lib/eligibility/interpret.js';
import { response271 } from '../fixtures/x12/build.js';
import { rng, seedFromEnv, type Rng } from './generate.js';

/**
 * 271 fuzzing: thousands of mutated replies (segments dropped, duplicated, swapped and truncated,
 * delimiters changed, bytes and Unicode inserted, elements blown up, BOMs and line breaks, AAA and
 * HL segments injected) through interpret271, the one entry the handler calls. It must never throw
 * and always return a Result whose error, when there is one, is in the contract's table for a
 * payer answer (422 PAYER_REJECTED, 503 PAYER_UNAVAILABLE, 502 UPSTREAM_ERROR), and whose warnings
 * are strings. Bounded by count and time; reproducible with FUZZ_SEED (printed on failure).
 */
const SEED = seedFromEnv();
const COUNT = Number(process.env.FUZZ_X12_COUNT ?? 5_000);
const TIME_MS = Number(process.env.FUZZ_X12_MS ?? 5_000);

const fixturesDir = fileURLToPath(new URL('../fixtures/x12/', import.meta.url));
const corpusDir = fileURLToPath(new URL('../../../shared/corpus/x12/', import.meta.url));
const read = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.271')).map((f) => readFileSync(`${dir}${f}`, 'utf8')) : []);

const SEEDS: string[] = [
  ...read(fixturesDir),
  ...read(corpusDir),
  response271(['EB*1**30**GOLD PPO', 'EB*B*IND*98*PR**27*25*****Y', 'EB*C*FAM*30*PR**23*3000*****Y', 'EB*A*IND*30*PR***.2****N', 'EB*G*IND*30*PR**23*6000*****W']),
  response271(['EB*1*FAM*30', 'EB*C*IND*30***29*600*****Y', 'EB*C*IND*30***24*2500*****N'], { dependent: true }),
  response271(['AAA*N**72*C', 'EB*6**30']),
];

const ALLOWED = new Map([
  [422, 'PAYER_REJECTED'],
  [503, 'PAYER_UNAVAILABLE'],
  [502, 'UPSTREAM_ERROR'],
]);

const INJECT = ['AAA*N**42*R', 'AAA*Y**79*C', 'AAA*N**80*R', 'AAA*N**ZZ*Q', 'HL*9*99*22*0', 'HL*1**20*1', 'HL***', 'EB*1', 'EB*B*IND*98*PR**27*-5*****Y', 'EB*C*FAM*30*PR**23*1e309', 'EB*A*IND*30***.2.2', 'EB*C**30***24*abc', 'ST*271*0002', 'SE*1', 'IEA*1', 'GS*HB', 'ST*999*0001', 'NM1*IL*1*' + 'X'.repeat(5000), 'DTP*346*D8*20251399', 'LS*2120', 'LE*2120', 'MSG*' + '💥'.repeat(100)];

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
  it('survives every mutated 271 with a contract outcome and never throws', () => {
    const r = rng(SEED);
    const problems: string[] = [];
    const outcomes: Record<string, number> = {};
    const deadline = Date.now() + TIME_MS;
    let ran = 0;
    for (; ran < COUNT && Date.now() < deadline; ran++) {
      const input = mutate(r, r.pick(SEEDS));
      let problem: string | undefined;
      try {
        const { result, warnings, aaaCodes } = interpret271(input);
        if (!Array.isArray(warnings) || warnings.some((w) => typeof w !== 'string')) problem = 'warnings not strings';
        else if (!Array.isArray(aaaCodes)) problem = 'aaaCodes not an array';
        else if (result.ok) {
          const s = result.value as unknown as Record<string, unknown>;
          if (!s.inNetwork || !s.outNetwork || typeof s.coverageStatus !== 'string') problem = 'summary without benefit blocks';
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
});
