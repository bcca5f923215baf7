/**
 * Deterministic inputs for the interpret271 golden test: each source file as is, plus damaged
 * variants (dropped segments, truncations, layout and delimiter changes) so that the warning paths
 * are pinned as well as the happy path. Outputs are compared as canonical JSON (sorted keys).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EligibilityQuestion } from '../../lib/eligibility/types.js';
import { envelope, response271 } from '../fixtures/x12/build.js';

/** The question golden outputs are recorded with: a date of service, services and a procedure, so every rule is pinned. */
export const GOLDEN_QUESTION: EligibilityQuestion = { dateOfCoverage: '20250315', serviceTypeCodes: ['30', '98', 'AL'], procedureCodes: ['99213'] };

export interface Case {
  name: string;
  text: string;
}

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

/** Project fixture cases: the fixture file and crafted 271s, each with its damaged variants. */
export function fixtureCases(): Case[] {
  const crafted: Case[] = [
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
  return crafted.flatMap((c) => variants(c.name, c.text));
}

/** Every .271/.270 of a corpus directory with its variants. */
export function corpusCases(dir: string): Case[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.271') || f.endsWith('.270'))
    .sort();
  return files.flatMap((f) => variants(f, readFileSync(join(dir, f), 'utf8')));
}

export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = canonical((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value));
}

export function digest(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 16);
}
