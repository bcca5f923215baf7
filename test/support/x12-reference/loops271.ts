/**
 * The loop model of a 271 transaction set. Levels follow HL03 (20/21/22/23 → 2000A/B/C/D), never
 * NM101, because real files put NM1*IL under a dependent HL. NM1 between LS and LE is a 2120 entity
 * of the current benefit, not a new 2100. Structural oddities are warnings.
 */
import { element, elementIs, type Segment } from './segment.js';
import type { Transaction } from './envelope.js';

/** 2120x: one NM1 inside LS/LE with the N3/N4/PER/PRV after it. */
export interface RelatedEntity {
  loop: string;
  nm1: Segment;
  segments: Segment[];
}

/** 2110x: one EB with its HSD/REF/DTP/AAA/MSG/III, and its LS/LE related entities. */
export interface BenefitLoop {
  loop: string;
  eb: Segment;
  segments: Segment[];
  related: RelatedEntity[];
  /** Ordinal of this EB in the transaction (document order). */
  order: number;
}

/** 2100x: NM1 and its REF/N3/N4/PER/PRV/DMG/INS/HI/DTP/MPI/AAA. */
export interface NameLoop {
  loop: string;
  nm1: Segment;
  segments: Segment[];
}

/** 2000x: one HL level. */
export interface HlLoop {
  /** 2000A/B/C/D from HL03; "2000" + "?" for an unknown level code. */
  loop: string;
  /** The letter (A–D, or "?"), reused for 2100x/2110x/2120x. */
  level: string;
  hl: Segment;
  id: string;
  parentId: string;
  /** Segments of the 2000x loop itself (HL, TRN, AAA…). */
  segments: Segment[];
  names: NameLoop[];
  benefits: BenefitLoop[];
  children: HlLoop[];
  parent?: HlLoop;
}

/** One AAA segment and the loop it stood in. */
export interface AaaOccurrence {
  segment: Segment;
  loop: string;
}

export interface Transaction271 {
  /** BHT and anything else before the first HL. */
  header: Segment[];
  /** Every HL loop in document order. */
  levels: HlLoop[];
  /** HL loops without a (known) parent. */
  roots: HlLoop[];
  /** Every AAA in document order. */
  aaa: AaaOccurrence[];
  warnings: string[];
}

const LEVELS: Readonly<Record<string, string>> = { '20': 'A', '21': 'B', '22': 'C', '23': 'D' };
const LOOP_2000: Readonly<Record<string, string>> = { A: '2000A', B: '2000B', C: '2000C', D: '2000D', '?': '2000?' };
const LOOP_2100: Readonly<Record<string, string>> = { A: '2100A', B: '2100B', C: '2100C', D: '2100D', '?': '2100?' };
const LOOP_2110: Readonly<Record<string, string>> = { A: '2110A', B: '2110B', C: '2110C', D: '2110D', '?': '2110?' };
const LOOP_2120: Readonly<Record<string, string>> = { A: '2120A', B: '2120B', C: '2120C', D: '2120D', '?': '2120?' };

function at(segment: Segment): string {
  return `segment ${segment.position}`;
}

/**
 * The last HL loop with this (non-empty) HL01, as a map keyed by HL01 would give. A 271 has a
 * handful of HLs, so a backwards scan is cheaper than building a map for every call.
 */
function latestWithId(levels: readonly HlLoop[], id: string): HlLoop | undefined {
  for (let i = levels.length - 1; i >= 0; i--) if (levels[i]!.id === id) return levels[i];
  return undefined;
}

export function readLoops271(transaction: Transaction): Transaction271 {
  const warnings: string[] = [];
  const header: Segment[] = [];
  const levels: HlLoop[] = [];
  const roots: HlLoop[] = [];
  const aaa: AaaOccurrence[] = [];

  let level: HlLoop | undefined;
  let name: NameLoop | undefined;
  let benefit: BenefitLoop | undefined;
  let related: RelatedEntity | undefined;
  let inLs = false;
  let ebCount = 0;

  const body = transaction.body;
  for (let i = 0; i < body.length; i++) {
    const segment = body[i]!;
    switch (segment.id) {
      case 'HL': {
        if (inLs) warnings.push(`${at(segment)}: HL inside LS/LE (no LE)`);
        inLs = false;
        name = benefit = related = undefined;
        const code = element(segment, 3);
        // Own keys only: an HL03 such as "toString" must not find Object.prototype's member.
        const letter = Object.hasOwn(LEVELS, code) ? LEVELS[code] : undefined;
        if (!letter) warnings.push(`${at(segment)}: HL03 is not a 271 level code`);
        const created: HlLoop = {
          loop: LOOP_2000[letter ?? '?'] ?? `2000${letter}`,
          level: letter ?? '?',
          hl: segment,
          id: element(segment, 1),
          parentId: element(segment, 2),
          segments: [segment],
          names: [],
          benefits: [],
          children: [],
        };
        const parent = created.parentId === '' ? undefined : latestWithId(levels, created.parentId);
        if (parent) {
          created.parent = parent;
          parent.children.push(created);
        } else {
          if (created.parentId !== '') warnings.push(`${at(segment)}: HL02 names no earlier HL`);
          roots.push(created);
        }
        if (created.id !== '') {
          if (latestWithId(levels, created.id)) warnings.push(`${at(segment)}: HL01 repeats an earlier HL01`);
        }
        levels.push(created);
        level = created;
        break;
      }
      case 'NM1':
        if (!level) {
          warnings.push(`${at(segment)}: NM1 before the first HL`);
          header.push(segment);
        } else if (benefit) {
          // After an EB an NM1 can only be a 2120 entity; without LS it is misplaced but kept there.
          if (!inLs) warnings.push(`${at(segment)}: NM1 after EB outside LS/LE`);
          related = { loop: LOOP_2120[level.level] ?? `2120${level.level}`, nm1: segment, segments: [segment] };
          benefit.related.push(related);
        } else {
          name = { loop: LOOP_2100[level.level] ?? `2100${level.level}`, nm1: segment, segments: [segment] };
          level.names.push(name);
        }
        break;
      case 'EB':
        if (!level) {
          warnings.push(`${at(segment)}: EB before the first HL`);
          header.push(segment);
          break;
        }
        if (inLs) warnings.push(`${at(segment)}: EB inside LS/LE (no LE)`);
        inLs = false;
        related = undefined;
        if (level.level !== 'C' && level.level !== 'D') warnings.push(`${at(segment)}: EB under ${level.loop}`);
        benefit = { loop: LOOP_2110[level.level] ?? `2110${level.level}`, eb: segment, segments: [segment], related: [], order: ebCount++ };
        level.benefits.push(benefit);
        break;
      case 'LS':
        if (!benefit) {
          warnings.push(`${at(segment)}: LS without a preceding EB`);
          (name ?? level)?.segments.push(segment);
          break;
        }
        if (inLs) warnings.push(`${at(segment)}: LS inside LS/LE`);
        inLs = true;
        related = undefined;
        benefit.segments.push(segment);
        break;
      case 'LE':
        if (!inLs) warnings.push(`${at(segment)}: LE without LS`);
        inLs = false;
        related = undefined;
        (benefit ?? name ?? level)?.segments.push(segment);
        break;
      case 'AAA': {
        // AAA belongs to 2000x/2100x/2110x; one inside LS/LE is attributed to its 2110x.
        const container = benefit ?? name ?? level;
        if (container) {
          container.segments.push(segment);
          aaa.push({ segment, loop: container.loop });
        } else {
          header.push(segment);
          aaa.push({ segment, loop: 'header' });
        }
        break;
      }
      default: {
        const container = inLs ? (related ?? benefit) : (benefit ?? name ?? level);
        if (container) container.segments.push(segment);
        else header.push(segment);
      }
    }
  }
  if (inLs) warnings.push('transaction set: LS without LE');
  for (const hl of levels) {
    if (elementIs(hl.hl, 4, '1') && hl.children.length === 0) warnings.push(`segment ${hl.hl.position}: HL04 announces children but none follow`);
  }
  return { header, levels, roots, aaa, warnings };
}
