/**
 * The loops of one 271 transaction set, read by the grammar table LOOPS_271
 * (docs/eligibility.md#the-271-loop-grammar), the way stupidedi describes HB271. The table alone says
 * which segment opens which loop, inside which loop, which segments each loop keeps and the LS/LE pair
 * a 2120 stands between; grammarOf turns it into the lookups the reader follows. The code below only
 * builds what each loop gives the answer (a level's HL01–HL03, a benefit's order) and words the
 * warnings. Levels follow HL03 (20/21/22/23 → 2000A/B/C/D), never NM101, because real files put
 * NM1*IL under a dependent HL. Structural oddities are warnings, never errors. LOOPS_271, grammarOf and
 * readLoops271's grammar argument are exported for test/x12/loops271.test.ts, which reads replies with
 * changed tables to show that the table decides (docs/eligibility.md#the-271-loop-grammar).
 */
import { element, SEGMENT, type Segment, type SegmentId } from './segment.js';

/** The four loop kinds under a 2000 level; `x` in a name is the level letter (2100C). */
export type LoopKind = '2000' | '2100' | '2110' | '2120';

export interface LoopRule {
  loop: LoopKind;
  /** The segment whose arrival opens the loop. */
  opensOn: SegmentId;
  /** The loop it opens inside (closing every loop deeper than that one), or the transaction set. */
  inside: LoopKind | 'transaction';
  /**
   * The segments the loop keeps: a segment that opens no loop goes to the innermost open loop that
   * keeps it, and one that no open loop keeps to the innermost open loop.
   */
  keeps: readonly SegmentId[];
  /**
   * The pair of its parent's segments the loop stands between (LS … LE): the first opens the pair,
   * the second ends it and every loop inside it. Opened outside the pair, the loop holds only its opener.
   */
  between?: readonly [SegmentId, SegmentId];
}

/** The 271 grammar (005010X279A1), outermost first (a loop's parent comes before it). */
export const LOOPS_271: readonly LoopRule[] = [
  { loop: '2000', opensOn: SEGMENT.hierarchicalLevel, inside: 'transaction', keeps: [SEGMENT.trace, SEGMENT.rejection] },
  {
    loop: '2100',
    opensOn: SEGMENT.name,
    inside: '2000',
    keeps: [
      SEGMENT.contact,
      SEGMENT.reference,
      SEGMENT.address,
      SEGMENT.geographicLocation,
      SEGMENT.rejection,
      SEGMENT.provider,
      SEGMENT.demographics,
      SEGMENT.insured,
      SEGMENT.diagnosis,
      SEGMENT.date,
      SEGMENT.militaryPersonnel,
    ],
  },
  {
    loop: '2110',
    opensOn: SEGMENT.benefit,
    inside: '2000',
    keeps: [
      SEGMENT.delivery,
      SEGMENT.reference,
      SEGMENT.date,
      SEGMENT.rejection,
      SEGMENT.message,
      SEGMENT.additionalInformation,
      SEGMENT.loopStart,
      SEGMENT.loopEnd,
    ],
  },
  {
    loop: '2120',
    opensOn: SEGMENT.name,
    inside: '2110',
    between: [SEGMENT.loopStart, SEGMENT.loopEnd],
    // N3, N4, PER, PRV per 005010X279A1; a REF, DTP, MSG or HSD between LS and LE stays with the entity too
    // (its REF*IG is the other payer's member id), so of what comes there only AAA, III, LS and LE go to the
    // 2110, and TRN to the 2000.
    keeps: [SEGMENT.address, SEGMENT.geographicLocation, SEGMENT.contact, SEGMENT.provider, SEGMENT.reference, SEGMENT.date, SEGMENT.message, SEGMENT.delivery],
  },
];

/** A rule as the reader looks it up: its parent's rule, its depth (0 inside the transaction set) and what builds its loop. */
interface GrammarRule extends LoopRule {
  parent: GrammarRule | undefined;
  depth: number;
  build: Build;
}

/** What the table says of a segment id: the rules it opens (deepest parent first), the rules that keep it, the `between` pair it starts or ends. */
interface Step {
  opens: readonly GrammarRule[];
  keptBy: readonly GrammarRule[];
  pairOf: GrammarRule | undefined;
  starts: boolean;
}

/** A loop table as the reader follows it: the step of each segment id the table names (any other stays in the innermost open loop). */
export interface Grammar {
  steps: ReadonlyMap<string, Readonly<Step>>;
}

/** The lookups of a loop table (outermost rule first); a rule whose parent no earlier rule opens is an error in the table. */
export function grammarOf(rules: readonly LoopRule[]): Grammar {
  const compiled: GrammarRule[] = [];
  for (const rule of rules) {
    const parent = rule.inside === 'transaction' ? undefined : compiled.find((r) => r.loop === rule.inside);
    if (rule.inside !== 'transaction' && !parent) throw new Error(`loop ${rule.loop} opens inside ${rule.inside}, which no earlier rule opens`);
    compiled.push({ ...rule, parent, depth: parent ? parent.depth + 1 : 0, build: BUILD[rule.loop] });
  }
  const steps = new Map<string, Step>();
  const stepOf = (id: string): Step => {
    const step = steps.get(id) ?? { opens: [], keptBy: [], pairOf: undefined, starts: false };
    steps.set(id, step);
    return step;
  };
  // Deepest parent first: the first rule whose parent is open is the innermost one that can open.
  for (const rule of compiled.toSorted((x, y) => y.depth - x.depth)) {
    const opener = stepOf(rule.opensOn);
    opener.opens = [...opener.opens, rule];
    for (const kept of rule.keeps.map(stepOf)) kept.keptBy = [...kept.keptBy, rule];
    if (!rule.between) continue;
    const [start, end] = rule.between.map(stepOf) as [Step, Step];
    start.pairOf = end.pairOf = rule;
    start.starts = true;
  }
  return { steps };
}

/** The rules that keep a segment id the table does not name: none. */
const NOT_KEPT: readonly GrammarRule[] = [];

/** HL03 → the level letter of the loop names. */
const LEVELS: Readonly<Record<string, string>> = { '20': 'A', '21': 'B', '22': 'C', '23': 'D' };
/** The letter of a level whose HL03 is not a 271 level code. */
const UNKNOWN_LEVEL = '?';

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
interface AaaOccurrence {
  segment: Segment;
  loop: string;
}

export interface Transaction271 {
  /** Every 2000 level, in document order. */
  levels: LevelLoop[];
  aaa: AaaOccurrence[];
  warnings: string[];
}

/** An open loop: its rule, the loop, and the `between` pair started in it and not yet ended. */
interface Open {
  rule: GrammarRule;
  loop: Loop | LevelLoop | BenefitLoop;
  pair: readonly [SegmentId, SegmentId] | undefined;
}

/** Where the reader stands: the open loops, outermost first (open[d] is at depth d), and the level they belong to. */
interface State {
  doc: Transaction271;
  open: Open[];
  level: LevelLoop | undefined;
  benefits: number;
}

const at = (segment: Segment): string => `segment ${segment.position}`;
const nameOf = (state: State, rule: LoopRule): string => `${rule.loop}${state.level?.level ?? UNKNOWN_LEVEL}`;

/** The last level with this (non-empty) HL01, as a map keyed by HL01 would give. */
function latestWithId(levels: readonly LevelLoop[], id: string): LevelLoop | undefined {
  for (let i = levels.length - 1; i >= 0; i--) if (levels[i]!.id === id) return levels[i];
  return undefined;
}

/** 2000: a level, its parent by HL02. */
function buildLevel(state: State, hl: Segment, rule: LoopRule): LevelLoop {
  const { doc } = state;
  const code = element(hl, 3);
  const letter = Object.hasOwn(LEVELS, code) ? LEVELS[code]! : UNKNOWN_LEVEL;
  if (letter === UNKNOWN_LEVEL) doc.warnings.push(`${at(hl)}: HL03 is not a 271 level code`);
  const id = element(hl, 1);
  const parentId = element(hl, 2);
  const parent = parentId === '' ? undefined : latestWithId(doc.levels, parentId);
  if (parent) parent.children++;
  else if (parentId !== '') doc.warnings.push(`${at(hl)}: HL02 names no earlier HL`);
  if (id !== '' && latestWithId(doc.levels, id)) doc.warnings.push(`${at(hl)}: HL01 repeats an earlier HL01`);
  const level: LevelLoop = { name: `${rule.loop}${letter}`, segments: [hl], level: letter, id, names: [], benefits: [], parent, children: 0 };
  doc.levels.push(level);
  state.level = level;
  return level;
}

/** 2100: a name of the level. */
function buildName(state: State, nm1: Segment, rule: LoopRule): Loop {
  const loop: Loop = { name: nameOf(state, rule), segments: [nm1] };
  state.level?.names.push(loop);
  return loop;
}

/** 2110: a benefit of the level (benefits belong to 2000C/D; elsewhere a warning). */
function buildBenefit(state: State, eb: Segment, rule: LoopRule): BenefitLoop {
  const { level } = state;
  if (level && level.level !== 'C' && level.level !== 'D') state.doc.warnings.push(`${at(eb)}: ${eb.id} under ${level.name}`);
  const loop: BenefitLoop = { name: nameOf(state, rule), segments: [eb], related: [], order: state.benefits++ };
  level?.benefits.push(loop);
  return loop;
}

/** 2120: an entity related to the benefit it opens inside. */
function buildRelated(state: State, nm1: Segment, rule: GrammarRule): Loop {
  const loop: Loop = { name: nameOf(state, rule), segments: [nm1] };
  const benefit = state.open[rule.depth - 1]?.loop;
  if (benefit && 'related' in benefit) benefit.related.push(loop);
  return loop;
}

/** What each loop gives the answer, built when the table opens it. */
type Build = (state: State, opener: Segment, rule: GrammarRule) => Loop;
const BUILD: Readonly<Record<LoopKind, Build>> = {
  '2000': buildLevel,
  '2100': buildName,
  '2110': buildBenefit,
  '2120': buildRelated,
};

/** LOOPS_271 as the reader follows it. */
const GRAMMAR_271: Grammar = grammarOf(LOOPS_271);

/** Closes every open loop at `depth` and deeper. */
function closeFrom(path: Open[], depth: number): void {
  while (path.length > depth) path.pop();
}

/** The first of the rules whose parent is the open loop just above the rule's depth (a loop inside the transaction set always can). */
function openable(path: readonly Open[], rules: readonly GrammarRule[]): GrammarRule | undefined {
  for (const rule of rules) if (rule.parent === undefined || path[rule.depth - 1]?.rule === rule.parent) return rule;
  return undefined;
}

/** A segment that opens a loop: its rule closes every loop at its depth or deeper and opens its own. */
function open(state: State, rules: readonly GrammarRule[], opener: Segment): void {
  const { doc, open: path } = state;
  const rule = openable(path, rules);
  if (!rule) {
    doc.warnings.push(`${at(opener)}: ${opener.id} before the first ${rules[rules.length - 1]!.parent?.opensOn}`);
    return;
  }
  for (let d = rule.depth; d < path.length; d++) {
    const pair = path[d]!.pair;
    if (pair) doc.warnings.push(`${at(opener)}: ${opener.id} inside ${pair[0]}/${pair[1]} (no ${pair[1]})`);
  }
  const parent = path[rule.depth - 1];
  const outsidePair = rule.between !== undefined && parent?.pair === undefined;
  if (outsidePair) doc.warnings.push(`${at(opener)}: ${opener.id} after ${parent?.rule.opensOn} outside ${rule.between!.join('/')}`);
  closeFrom(path, rule.depth);
  const loop = rule.build(state, opener, rule);
  if (!outsidePair) path.push({ rule, loop, pair: undefined });
}

/** A segment that opens no loop: kept by the innermost open loop whose rule keeps it, else by the innermost open loop. */
function keep(path: readonly Open[], keptBy: readonly GrammarRule[], segment: Segment): Loop | undefined {
  let keeper = path[path.length - 1];
  for (let d = path.length - 1; d >= 0; d--) {
    if (keptBy.includes(path[d]!.rule)) {
      keeper = path[d];
      break;
    }
  }
  keeper?.loop.segments.push(segment);
  return keeper?.loop;
}

/** LS: starts the pair in the rule's parent (a 2110), ending any loop inside it. */
function startPair(state: State, start: Segment, rule: GrammarRule): void {
  const parent = state.open[rule.depth - 1];
  if (parent?.rule !== rule.parent) {
    state.doc.warnings.push(`${at(start)}: ${start.id} without a preceding ${rule.parent?.opensOn}`);
    return;
  }
  if (parent.pair) state.doc.warnings.push(`${at(start)}: ${start.id} inside ${parent.pair.join('/')}`);
  parent.pair = rule.between;
  closeFrom(state.open, rule.depth);
}

/** LE: ends the pair and every loop inside it. */
function endPair(state: State, end: Segment, rule: GrammarRule): void {
  const parent = state.open[rule.depth - 1];
  const inParent = parent?.rule === rule.parent;
  if (!inParent || !parent.pair) state.doc.warnings.push(`${at(end)}: ${end.id} without ${rule.between![0]}`);
  if (!inParent) return;
  parent.pair = undefined;
  closeFrom(state.open, rule.depth);
}

/** The loops of a transaction set's body, read by a loop table (LOOPS_271 unless another is given). */
export function readLoops271(body: readonly Segment[], grammar: Grammar = GRAMMAR_271): Transaction271 {
  const doc: Transaction271 = { levels: [], aaa: [], warnings: [] };
  const state: State = { doc, open: [], level: undefined, benefits: 0 };
  for (const segment of body) {
    const step = grammar.steps.get(segment.id);
    if (step && step.opens.length > 0) {
      open(state, step.opens, segment);
      continue;
    }
    const loop = keep(state.open, step?.keptBy ?? NOT_KEPT, segment);
    if (step?.pairOf) (step.starts ? startPair : endPair)(state, segment, step.pairOf);
    if (segment.id === SEGMENT.rejection) doc.aaa.push({ segment, loop: loop?.name ?? 'header' });
  }
  const unended = state.open.find((o) => o.pair)?.pair;
  if (unended) doc.warnings.push(`transaction set: ${unended[0]} without ${unended[1]}`);
  for (const level of doc.levels) {
    if (element(level.segments[0]!, 4) === '1' && level.children === 0) doc.warnings.push(`${at(level.segments[0]!)}: HL04 announces children but none follow`);
  }
  return doc;
}
