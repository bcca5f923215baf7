/**
 * Deterministic inputs for the interpret271 golden test (golden.test.ts, recorded by record-golden.ts):
 * - fixture cases: the project's fixture 271 and crafted 271s, each with damaged variants (dropped
 *   segments, truncations, layout and delimiter changes) so the warning paths are pinned too;
 * - seeded random damage of those fixtures (and of the shared corpus when present);
 * - replies.json: every 271 the project's tests hand to the reader (captured once from a test run)
 *   and the sandbox clearinghouse's reply for each of its patients, each with the question asked;
 * - the shared corpus (../shared/corpus/x12, or $X12_CORPUS), each file with its variants.
 * Every case is answered for two questions (GOLDEN_QUESTION and the default {}), and an answer is
 * compared as JSON.stringify output, key order included: the byte-for-byte body a client would see.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Interpretation } from '../../lib/eligibility/interpret.js';
import type { EligibilityQuestion } from '../../lib/eligibility/types.js';
import { envelope, response271 } from '../fixtures/x12/build.js';

/** The question golden outputs are recorded with: a date of service, services and a procedure, so every rule is pinned. */
export const GOLDEN_QUESTION: EligibilityQuestion = { dateOfCoverage: '20250315', serviceTypeCodes: ['30', '98', 'AL'], procedureCodes: ['99213'] };
/** The second question: nothing asked (default service 30, no date, no procedures). */
export const DEFAULT_QUESTION: EligibilityQuestion = {};

export interface Case {
  name: string;
  text: string;
}

/** A case with the question the test that sent it asked (replies.json). */
export interface Reply {
  name: string;
  x12: string;
  question: EligibilityQuestion;
}

export const GOLDEN_DIR = fileURLToPath(new URL('../fixtures/x12/golden/', import.meta.url));
/** The shared corpus beside the repo (absent on a fresh clone; X12_CORPUS points elsewhere). */
export const CORPUS_DIR = process.env.X12_CORPUS ?? fileURLToPath(new URL('../../../shared/corpus/x12/', import.meta.url));
export const corpusPresent = (): boolean => existsSync(join(CORPUS_DIR, 'manifest.json'));

/** The ISA's own segment terminator (char after ISA16), found like the tokenizer does. */
function terminatorOf(text: string): string | undefined {
  const start = text.indexOf('ISA');
  if (start < 0) return undefined;
  const sep = text[start + 3]!;
  let at = start + 3;
  for (let n = 1; n < 16; n++) {
    at = text.indexOf(sep, at + 1);
    if (at < 0) return undefined;
  }
  return text[at + 2];
}

export function variants(name: string, text: string): Case[] {
  const out: Case[] = [{ name, text }];
  const add = (suffix: string, t: string) => out.push({ name: `${name}#${suffix}`, text: t });
  const term = terminatorOf(text);
  add('crlf', text.replaceAll('\n', '\r\n'));
  add('bom', `\uFEFF \n${text}`);
  add('garbage', `garbage${text}`);
  for (const f of [0.1, 0.25, 0.5, 0.75, 0.9]) add(`cut${f}`, text.slice(0, Math.floor(text.length * f)));
  add('cut-1', text.slice(0, -1));
  add('trail', `${text}\n  \n`);
  if (term === undefined) return out;
  const parts = text.split(term);
  for (let i = 0; i < parts.length; i++) {
    if (parts[i]!.trim() === '') continue;
    add(`drop${i}`, parts.filter((_, j) => j !== i).join(term));
    add(`dup${i}`, parts.flatMap((p, j) => (j === i ? [p, p] : [p])).join(term));
  }
  add('lines', parts.join(`${term}\n`));
  add('pad', parts.join(`  ${term}`));
  add('twice', text + text);
  add('noterm', parts.join(''));
  // ISA11 made equal to ISA16 (repetition collides with component).
  const sep = text[text.indexOf('ISA') + 3]!;
  const isaParts = text.split(sep);
  if (isaParts.length > 16) {
    const comp = isaParts[16]![0]!;
    add('isa11-comp', [...isaParts.slice(0, 11), comp, ...isaParts.slice(12)].join(sep));
    add('isa11-U', [...isaParts.slice(0, 11), 'U', ...isaParts.slice(12)].join(sep));
  }
  add('st-999', text.replace(`ST${sep}271`, `ST${sep}999`));
  add('hl-23', text.replaceAll(`${sep}22${sep}`, `${sep}23${sep}`));
  add('hl-2x', text.replaceAll(`${sep}22${sep}`, `${sep}2X${sep}`));
  add('ls-drop', text.replace(`LE${sep}`, `XX${sep}`));
  return out;
}

const FIXTURES = fileURLToPath(new URL('../fixtures/x12/', import.meta.url));

/** The project's fixture 271 and crafted 271s, without variants. */
export function fixtureSources(): Case[] {
  return [
    { name: 'fixture', text: readFileSync(join(FIXTURES, 'subscriber-benefits.271'), 'utf8') },
    {
      name: 'slots',
      text: response271([
        'EB*1**30*HM',
        'EB*B*IND*30*HM***25*****Y',
        'EB*B*FAM*98^30*HM***40*****N',
        'EB*A*IND*30****0.2****Y',
        'EB*A**1****.125****N',
        'EB*C*IND*30***23*1500*****Y',
        'EB*C*IND*30***29*750.5*****Y',
        'EB*C*FAM*30***22*3000*****W',
        'EB*C*FAM*30***24*1000.25*****W',
        'EB*G*IND*30***23*5000*****Y',
        'EB*G*FAM****25*-10*****U',
        'EB*B*IND*30****abc****Y',
        'EB*B*IND*30***10*****Y*HC:99213',
        'LS*2120',
        'NM1*P3*1*DOC*A',
        'PER*IC**TE*5555555555',
        'LE*2120',
        'MSG*FREE TEXT',
        'DTP*291*D8*20250101',
      ]),
    },
    { name: 'medicare', text: response271(['EB*1**30*MA', 'EB*C*IND*30*MA**23*1600*****Y', 'EB*C*IND*30*MB**23*240*****Y', 'EB*A*IND*30*MB***0.2***Y']) },
    { name: 'dependent', text: response271(['EB*6**30', 'EB*B*EMP*1***23*10*****U'], { dependent: true, payerName: '' }) },
    { name: 'inactive', text: response271(['EB*6**30', 'EB*7']) },
    { name: 'aaa', text: response271(['EB*1**30', 'AAA*N**72*C']) },
    { name: 'aaa-42', text: envelope(['HL*1**20*0', 'AAA*Y**42*R', 'NM1*PR*2*P', 'AAA*N**80*P']) },
    { name: 'no-2000c', text: envelope(['HL*1**20*0', 'NM1*PR*2*P']) },
    { name: '999', text: envelope(['AK1*HS*1', 'AK9*R*1*1*0'], { setId: '999', version: '005010X231A1' }) },
    { name: 'empty', text: '' },
    { name: 'no-isa', text: 'hello world' },
    { name: 'isa-short', text: 'ISA*00*          *00*' },
    { name: 'isa-bad', text: 'ISAX00X' },
  ];
}

/** Project fixture cases: the fixture file and crafted 271s, each with its damaged variants. */
export function fixtureCases(): Case[] {
  return fixtureSources().flatMap((c) => variants(c.name, c.text));
}

/** Every .271/.270 of a corpus directory, without variants. */
export function corpusSources(dir: string = CORPUS_DIR): Case[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.271') || f.endsWith('.270'))
    .sort()
    .map((f) => ({ name: f, text: readFileSync(join(dir, f), 'utf8') }));
}

/** Every .271/.270 of a corpus directory with its variants. */
export function corpusCases(dir: string = CORPUS_DIR): Case[] {
  return corpusSources(dir).flatMap((c) => variants(c.name, c.text));
}

/** mulberry32: small seeded generator so damage reproduces. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Segments the seeded damage inserts: loop and envelope ids out of place, and every segment the answer reads. */
const FOREIGN = [
  'HL*9*1*22*1',
  'HL*9**20*0',
  'HL*3*2*23*0',
  'HL*1*7*2Q*1',
  'HL**1*21*1',
  'LS*2120',
  'LE*2120',
  'NM1*PR*2*OTHER PAYER',
  'NM1*P3*1*DOC',
  'EB*C*IND*30***23*100*****Y',
  'EB*B*FAM*98^1*MB***15*****N',
  'EB*A**30*MA***0.25****W',
  'EB*1',
  'EB*6**30',
  'AAA*N**72*C',
  'AAA*Y**42*R',
  'AAA*N**79*N',
  'ST*271*0002*005010X279A1',
  'ST*999*0003',
  'SE*4*0002',
  'GE*1*9',
  'GS*HB*A*B*20250101*1200*9*X*005010X279A1',
  'IEA*1*000000001',
  'REF*SY*1',
  'DTP*291*D8*20250101',
  'MSG*TEXT',
  'x y',
  'TOOLONG*1',
  'ISA',
  'EB*constructor*IND*30***23*5',
  'HL*5*1*toString*0',
  'REF*IG*X123',
  'REF*6P*GRP1*GROUP NAME',
  'REF*18*PLN',
  'DTP*346*D8*20250101',
  'DTP*347*D8*20241231',
  'DTP*291*RD8*20250101-20251231',
  'DTP*356*D8*20200101',
  'DMG*D8*19700101',
  'INS*N*19',
  'EB*R**30*HN',
  'NM1*PRP*2*OTHER PLAN*****PI*99999',
  'NM1*IL*1*DOE*JANE****MI*W000000001',
  'EB*B*IND*30***27*99999.99*****Y',
  'EB*1**30**VISION PLAN',
  'EB*F*IND*AL***27**VS*2*Y**Y',
  'MSG*PRIOR AUTH',
  'EB*C*IND*96*MB**23*257',
  'EB*B*IND*98***27*40*****Y*HC:99213',
  'EB*G*FAM*30***29*1000.25*****Y',
];

function mutate(text: string, rnd: () => number): string {
  const term = text.includes('~') ? '~' : text.includes('\r') ? '\r' : '~';
  const parts = text.split(term);
  const edits = 1 + Math.floor(rnd() * 4);
  for (let e = 0; e < edits && parts.length > 1; e++) {
    const i = 1 + Math.floor(rnd() * (parts.length - 1));
    const kind = Math.floor(rnd() * 6);
    if (kind === 0) parts.splice(i, 1);
    else if (kind === 1) parts.splice(i, 0, parts[i]!);
    else if (kind === 2) parts.splice(i, 0, `\n${FOREIGN[Math.floor(rnd() * FOREIGN.length)]!}`);
    else if (kind === 3) parts.splice(i, 0, parts.splice(1 + Math.floor(rnd() * (parts.length - 1)), 1)[0]!);
    else if (kind === 4) parts[i] = parts[i]!.slice(0, Math.floor(rnd() * parts[i]!.length));
    else parts[i] = parts[i]!.replace(/\*2[0-3]\*/, `*2${Math.floor(rnd() * 5)}*`);
  }
  const out = parts.join(term);
  return rnd() < 0.1 ? out.slice(0, Math.floor(rnd() * out.length)) : out;
}

/** `rounds` seeded random damages of each source (round 0 is the source itself). */
export function damagedCases(sources: readonly Case[], rounds: number, seed: number): Case[] {
  const rnd = random(seed);
  const out: Case[] = [];
  for (const source of sources) {
    for (let r = 0; r < rounds; r++) out.push({ name: `${source.name}~${r}`, text: r === 0 ? source.text : mutate(source.text, rnd) });
  }
  return out;
}

/** Seeded damage of the project fixtures (150 rounds each) and of the corpus (40 rounds each). */
export const fixtureDamage = (): Case[] => damagedCases(fixtureSources(), 150, 271);
export const corpusDamage = (): Case[] => damagedCases(corpusSources(), 40, 999);

/** What an answer says of a reply's AAAs, as corpus-aaa.json records it per corpus 271: its error code (or "ok") and each rejection. */
export interface AaaAnswer {
  result: string;
  rejections: { code: string; followUpAction: string; loop: string }[];
}

export function aaaAnswerOf(out: Interpretation): AaaAnswer {
  if (out.result.ok) return { result: 'ok', rejections: [] };
  const rejections = out.result.error.rejections ?? [];
  return { result: out.result.error.code, rejections: rejections.map(({ code, followUpAction, loop }) => ({ code, followUpAction, loop })) };
}

/** The replies of replies.json: test 271s and sandbox patients' replies, with the question each was asked. */
export function recordedReplies(): Reply[] {
  return JSON.parse(readFileSync(join(GOLDEN_DIR, 'replies.json'), 'utf8')) as Reply[];
}

/** The exact JSON text of a value (key order kept): what a client's body would carry. */
export const exactJson = (value: unknown): string => JSON.stringify(value);

export function digest(value: unknown): string {
  return createHash('sha256').update(exactJson(value)).digest('hex').slice(0, 16);
}
