/**
 * The loops of one 271 transaction set, read by the grammar below (docs/eligibility.md#the-271-loop-grammar),
 * the way stupidedi describes HB271: which loop each segment opens, inside which loop, and what the
 * loop keeps. Levels follow HL03 (20/21/22/23 → 2000A/B/C/D), never NM101, because real files put
 * NM1*IL under a dependent HL. Structural oddities are warnings, never errors; a segment the
 * grammar does not expect where it stands stays in the innermost open loop (nothing is lost).
 */
import { element, SEGMENT, type Segment } from './segment.js';

/** The four loop kinds under a 2000 level; `x` in a name is the level letter (2100C). */
export type LoopKind = '2000' | '2100' | '2110' | '2120';

export interface LoopRule {
  loop: LoopKind;
  /** The segment whose arrival opens the loop. */
  opensOn: string;
  /** The loop it opens inside (closing any deeper one), or the transaction set. */
  inside: LoopKind | 'transaction';
  /** What the loop keeps, per 005010X279A1 (other segments met inside it are kept too). */
  keeps: readonly string[];
}

/** The 271 grammar (005010X279A1), outermost first. */
export const LOOPS_271: readonly LoopRule[] = [
  { loop: '2000', opensOn: SEGMENT.hierarchicalLevel, inside: 'transaction', keeps: ['TRN', 'AAA'] },
  { loop: '2100', opensOn: SEGMENT.name, inside: '2000', keeps: ['REF', 'N3', 'N4', 'AAA', 'PRV', 'DMG', 'INS', 'HI', 'DTP', 'MPI'] },
  { loop: '2110', opensOn: SEGMENT.benefit, inside: '2000', keeps: ['HSD', 'REF', 'DTP', 'AAA', 'MSG', 'III', 'LS', 'LE'] },
  // Only between LS and LE; an NM1 after an EB can only be a 2120, so one outside LS/LE still opens it (with a warning).
  { loop: '2120', opensOn: SEGMENT.name, inside: '2110', keeps: ['N3', 'N4', 'PER', 'PRV'] },
];

/** HL03 → the level letter of the loop names. */
export const LEVELS: Readonly<Record<string, string>> = { '20': 'A', '21': 'B', '22': 'C', '23': 'D' };
/** The letter of a level whose HL03 is not a 271 level code. */
export const UNKNOWN_LEVEL = '?';

/** A loop: its name ("2110C"), the segment that opened it and every segment it kept, opener first. */
export interface Loop {
  name: string;
  segments: Segment[];
}

/** 2110x: one EB with what it keeps, and its 2120x entities. */
export interface BenefitLoop extends Loop {
  related: Loop[];
  /** Ordinal of this EB in the transaction (document order). */
  order: number;
}

/** 2000x: one HL level. */
export interface LevelLoop extends Loop {
  /** A–D from HL03, or UNKNOWN_LEVEL. */
  level: string;
  /** HL01. */
  id: string;
  /** 2100x loops. */
  names: Loop[];
  benefits: BenefitLoop[];
  parent: LevelLoop | undefined;
  children: number;
}

/** One AAA and the loop it stood in ("header" before the first HL). */
export interface AaaOccurrence {
  segment: Segment;
  loop: string;
}

export interface Transaction271 {
  /** Every 2000 level, in document order. */
  levels: LevelLoop[];
  aaa: AaaOccurrence[];
  warnings: string[];
}

/** Where the reader stands: the open loops, innermost last, and whether an LS is open. */
interface State {
  doc: Transaction271;
  level: LevelLoop | undefined;
  name: Loop | undefined;
  benefit: BenefitLoop | undefined;
  related: Loop | undefined;
  inLs: boolean;
  benefits: number;
}

const at = (segment: Segment): string => `segment ${segment.position}`;
const rule = (loop: LoopKind): LoopRule => LOOPS_271.find((r) => r.loop === loop)!;

/** The last level with this (non-empty) HL01, as a map keyed by HL01 would give. */
function latestWithId(levels: readonly LevelLoop[], id: string): LevelLoop | undefined {
  for (let i = levels.length - 1; i >= 0; i--) if (levels[i]!.id === id) return levels[i];
  return undefined;
}

/** 2000: a new level; every deeper loop and any open LS end. */
function openLevel(state: State, hl: Segment): void {
  const { doc } = state;
  if (state.inLs) doc.warnings.push(`${at(hl)}: HL inside LS/LE (no LE)`);
  state.inLs = false;
  state.name = state.benefit = state.related = undefined;
  const code = element(hl, 3);
  const letter = Object.hasOwn(LEVELS, code) ? LEVELS[code]! : UNKNOWN_LEVEL;
  if (letter === UNKNOWN_LEVEL) doc.warnings.push(`${at(hl)}: HL03 is not a 271 level code`);
  const id = element(hl, 1);
  const parentId = element(hl, 2);
  const parent = parentId === '' ? undefined : latestWithId(doc.levels, parentId);
  if (parent) parent.children++;
  else if (parentId !== '') doc.warnings.push(`${at(hl)}: HL02 names no earlier HL`);
  if (id !== '' && latestWithId(doc.levels, id)) doc.warnings.push(`${at(hl)}: HL01 repeats an earlier HL01`);
  const level: LevelLoop = { name: `${rule('2000').loop}${letter}`, segments: [hl], level: letter, id, names: [], benefits: [], parent, children: 0 };
  doc.levels.push(level);
  state.level = level;
}

/** NM1: a 2120 entity after an EB, else a 2100 of the level. */
function openName(state: State, nm1: Segment): void {
  const { doc, level, benefit } = state;
  if (!level) {
    doc.warnings.push(`${at(nm1)}: NM1 before the first HL`);
  } else if (benefit) {
    if (!state.inLs) doc.warnings.push(`${at(nm1)}: NM1 after EB outside LS/LE`);
    state.related = { name: `${rule('2120').loop}${level.level}`, segments: [nm1] };
    benefit.related.push(state.related);
  } else {
    state.name = { name: `${rule('2100').loop}${level.level}`, segments: [nm1] };
    level.names.push(state.name);
  }
}

/** EB: a 2110 of the level (benefits belong to 2000C/D; elsewhere a warning). */
function openBenefit(state: State, eb: Segment): void {
  const { doc, level } = state;
  if (!level) {
    doc.warnings.push(`${at(eb)}: EB before the first HL`);
    return;
  }
  if (state.inLs) doc.warnings.push(`${at(eb)}: EB inside LS/LE (no LE)`);
  state.inLs = false;
  state.related = undefined;
  if (level.level !== 'C' && level.level !== 'D') doc.warnings.push(`${at(eb)}: EB under ${level.name}`);
  state.benefit = { name: `${rule('2110').loop}${level.level}`, segments: [eb], related: [], order: state.benefits++ };
  level.benefits.push(state.benefit);
}

function loopStart(state: State, ls: Segment): void {
  if (!state.benefit) {
    state.doc.warnings.push(`${at(ls)}: LS without a preceding EB`);
    (state.name ?? state.level)?.segments.push(ls);
    return;
  }
  if (state.inLs) state.doc.warnings.push(`${at(ls)}: LS inside LS/LE`);
  state.inLs = true;
  state.related = undefined;
  state.benefit.segments.push(ls);
}

function loopEnd(state: State, le: Segment): void {
  if (!state.inLs) state.doc.warnings.push(`${at(le)}: LE without LS`);
  state.inLs = false;
  state.related = undefined;
  (state.benefit ?? state.name ?? state.level)?.segments.push(le);
}

/** AAA belongs to 2000x/2100x/2110x; one inside LS/LE is attributed to its 2110x. */
function rejection(state: State, aaa: Segment): void {
  const container = state.benefit ?? state.name ?? state.level;
  container?.segments.push(aaa);
  state.doc.aaa.push({ segment: aaa, loop: container?.name ?? 'header' });
}

/** Any other segment: kept by the innermost open loop (inside LS/LE, the 2120 or its 2110). */
function keep(state: State, segment: Segment): void {
  const container = state.inLs ? (state.related ?? state.benefit) : (state.benefit ?? state.name ?? state.level);
  container?.segments.push(segment);
}

/** What each segment the grammar names does to the open loops. */
const STEPS: ReadonlyMap<string, (state: State, segment: Segment) => void> = new Map([
  [rule('2000').opensOn, openLevel],
  [SEGMENT.name, openName],
  [rule('2110').opensOn, openBenefit],
  [SEGMENT.loopStart, loopStart],
  [SEGMENT.loopEnd, loopEnd],
  [SEGMENT.rejection, rejection],
]);

export function readLoops271(body: readonly Segment[]): Transaction271 {
  const doc: Transaction271 = { levels: [], aaa: [], warnings: [] };
  const state: State = { doc, level: undefined, name: undefined, benefit: undefined, related: undefined, inLs: false, benefits: 0 };
  for (const segment of body) (STEPS.get(segment.id) ?? keep)(state, segment);
  if (state.inLs) doc.warnings.push('transaction set: LS without LE');
  for (const level of doc.levels) {
    if (element(level.segments[0]!, 4) === '1' && level.children === 0) doc.warnings.push(`${at(level.segments[0]!)}: HL04 announces children but none follow`);
  }
  return doc;
}
