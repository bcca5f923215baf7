/**
 * The 271 fast path for interpret271: tokenizer, envelope and 271 loop rules in one pass over the
 * text, with the same warnings, in the same order, as tokenize → readEnvelope → readLoops271.
 * Creating strings and objects is what parsing costs, so no segment becomes an object: characters
 * are read from a code array (codesOf), segments the rules look at are checked where they stand,
 * the only strings cut are the values an answer carries (the patient's EB elements and the
 * DTP/MSG/REF/NM1 of their 2110/2120 loops, the patient's and subscriber's 2100 name, DMG, INS,
 * REF and DTP, the payer name, AAA codes) and warnings. Every other segment is only counted.
 * Every 271 transaction set is read (a reply may carry one per member, docs/eligibility.md#several-transactions).
 * Nothing is kept across calls (the code array is scratch, used only while a call lasts).
 */
import { addDate, addMessage, readBenefitAt, type BenefitRow, type Period } from './benefit-row.js';
import type { AaaRejection } from '../errors/index.js';
import { rejection } from '../x12/aaa.js';
import { codesAre, countIsAt, elementEnd, elementStart, isSegmentIdAt, isWhitespace, readIsa, sameCodes, startInterchange } from '../x12/scan.js';
import type { Delimiters } from '../x12/scan.js';

/** What a 2100C/2100D (its first NM1 and the segments after it) says about the person. */
export interface PersonLoop {
  /** NM103, NM104, NM108, NM109. */
  lastName: string;
  firstName: string;
  idQualifier: string;
  id: string;
  /** DMG02 when DMG01 is D8 (the first DMG). */
  dateOfBirth: string;
  /** INS02 (the first INS). */
  relationship: string;
  /** REF*6P REF02 / REF03 and REF*18 REF02 (the first of each). */
  groupNumber: string;
  groupName: string;
  planNumber: string;
  dates: Period[];
}

/** What interpret271 needs of one 271 transaction set. */
export interface Doc271 {
  /** Whether any HL has level code 22 (2000C). */
  hasSubscriber: boolean;
  /** EB rows of the patient loop (first 2000D, else first 2000C). */
  patientBenefits: BenefitRow[];
  /** 2100C of the patient's subscriber (the 2000D's parent 2000C, else the first 2000C). */
  subscriber: PersonLoop | undefined;
  /** 2100D of the patient when the patient loop is a 2000D (fields empty when it has no NM1). */
  dependent: PersonLoop | undefined;
  /** NM103 of the first 2100A of the first 2000A ('' when absent). */
  payerName: string;
  /** Every AAA, in document order, with the loop readLoops271 would attribute it to. */
  aaa: AaaRejection[];
  warnings: string[];
}

export type Read271 =
  | { ok: false; error: { message: string; offset: number }; warnings: string[] }
  | {
      ok: true;
      /** Tokenizer warnings, then envelope warnings. */
      warnings: string[];
      /** Number of 271 transaction sets. */
      responses: number;
      /** Whether any transaction set is a 999. */
      acknowledged: boolean;
      /** Every 271 transaction set, in order. */
      docs: Doc271[];
    };

const LOOP_2000: Readonly<Record<string, string>> = { A: '2000A', B: '2000B', C: '2000C', D: '2000D', '?': '2000?' };
const LOOP_2100: Readonly<Record<string, string>> = { A: '2100A', B: '2100B', C: '2100C', D: '2100D', '?': '2100?' };
const LOOP_2110: Readonly<Record<string, string>> = { A: '2110A', B: '2110B', C: '2110C', D: '2110D', '?': '2110?' };

/*
 * Segments are checked where they stand in `codes` (codesOf of the input): a segment is its
 * [start, stop) span and its ordinal `position`, and an element is a [from, to) span, [-1, -1)
 * when absent.
 */

interface Interchange {
  /** Ordinal of the ISA; 0 when the interchange was opened by a stray GS. */
  position: number;
  /** ISA12 (version) and ISA13 (control number) spans. */
  isa12From: number;
  isa12To: number;
  isa13From: number;
  isa13To: number;
  groups: number;
}
interface Group {
  /** Ordinal of the GS; 0 when the group was opened by a stray ST. */
  position: number;
  gs06From: number;
  gs06To: number;
  gs08From: number;
  gs08To: number;
  transactions: number;
}
interface Transaction {
  position: number;
  st02From: number;
  st02To: number;
  body: number;
  /** Whether this is a 271 (whose loops are read). */
  read: boolean;
}
interface Level {
  position: number;
  level: string;
  loop: string;
  /** HL01's span ([-1, -1) when absent). */
  idFrom: number;
  idTo: number;
  children: number;
  /** HL04 is "1": children announced. */
  announces: boolean;
  /** NM103 of the first NM1 of this level's 2100, kept for 2000A only (the payer name). */
  name: string | undefined;
  /** EB rows, read for 2000C/2000D only (the patient loop is one of those). */
  benefits: BenefitRow[];
  /** The HL02 level, when it names an earlier one. */
  parent: Level | undefined;
  /** NM1s met in this level's 2100 (only the first is the person). */
  names: number;
  /** The first 2100 of a 2000C/2000D. */
  person: PersonLoop | undefined;
}

/** Separators of the segment `cutSegment` last read (the first 10, then its end), and how many it has. */
const segmentCuts = new Int32Array(11);
let segmentCount = 0;

export function emptyPerson(): PersonLoop {
  return { lastName: '', firstName: '', idQualifier: '', id: '', dateOfBirth: '', relationship: '', groupNumber: '', groupName: '', planNumber: '', dates: [] };
}

/** Segment ids as the reader's switch keys (char codes, base 256). */
const DTP = (68 << 16) | (84 << 8) | 80;
const MSG = (77 << 16) | (83 << 8) | 71;
const REF = (82 << 16) | (69 << 8) | 70;
const DMG = (68 << 16) | (77 << 8) | 71;
const INS = (73 << 16) | (78 << 8) | 83;

/** A–Z or 0–9, the characters of a segment id. */
function isIdChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90);
}

function at(position: number): string {
  return `segment ${position}`;
}

/** HL03 → level letter: 20, 21, 22, 23 → A, B, C, D; anything else '' (not a 271 level). */
function levelAt(codes: Uint16Array, from: number, to: number): string {
  if (to - from !== 2 || codes[from] !== 50) return '';
  switch (codes[from + 1]) {
    case 48:
      return 'A';
    case 49:
      return 'B';
    case 50:
      return 'C';
    case 51:
      return 'D';
  }
  return '';
}

/** Envelope and loop state of one read (methods, not per-call closures). */
class Reader {
  readonly env: string[] = [];
  interchange: Interchange | undefined = undefined;
  group: Group | undefined = undefined;
  transaction: Transaction | undefined = undefined;
  responses = 0;
  acknowledged = false;
  docs: Doc271[] = [];
  doc: Doc271 | undefined = undefined;

  // Loop state of the first 271.
  levels: Level[] = [];
  level: Level | undefined = undefined;
  /** Loop name of the current 2100 (undefined when none). */
  name: string | undefined = undefined;
  /** Loop name of the current 2110 (undefined when none). */
  benefit: string | undefined = undefined;
  inLs = false;
  ebCount = 0;
  /** The current 2110's row (2000C/D only), whether a 2120 NM1 followed it, and the 2100 person being read. */
  row: BenefitRow | undefined = undefined;
  related = false;
  person: PersonLoop | undefined = undefined;

  constructor(
    readonly text: string,
    readonly codes: Uint16Array,
    /** Element separator of the current interchange, as a code. */
    public separator: number,
  ) {}

  /** Span of element n of the segment at [start, stop): sets `from` and returns `to`. */
  from = -1;
  element(start: number, stop: number, n: number): number {
    const from = (this.from = elementStart(this.codes, start, stop, this.separator, n));
    return elementEnd(this.codes, from, stop, this.separator);
  }

  /** A trailer count as the warning shows it: "missing", or its numeric value. */
  countText(from: number, to: number): string {
    return to - from <= 0 ? 'missing' : String(Number(this.text.slice(from, to)));
  }

  closeTransaction(reason: string): void {
    const transaction = this.transaction;
    if (!transaction) return;
    this.env.push(`${at(transaction.position)}: transaction set has no SE (${reason})`);
    this.endTransaction(transaction);
  }

  closeGroup(reason: string): void {
    this.closeTransaction(reason);
    const group = this.group;
    if (!group) return;
    this.env.push(`${group.position ? at(group.position) : 'functional group'}: no GE (${reason})`);
    this.group = undefined;
  }

  closeInterchange(reason: string): void {
    this.closeGroup(reason);
    const interchange = this.interchange;
    if (!interchange) return;
    this.env.push(`${interchange.position ? at(interchange.position) : 'interchange'}: no IEA (${reason})`);
    this.interchange = undefined;
  }

  openGroup(position: number): Group {
    let interchange = this.interchange;
    if (!interchange) {
      this.env.push(`${position ? at(position) : 'group'}: functional group outside an interchange`);
      interchange = this.interchange = { position: 0, isa12From: -1, isa12To: -1, isa13From: -1, isa13To: -1, groups: 0 };
    }
    interchange.groups++;
    return { position, gs06From: -1, gs06To: -1, gs08From: -1, gs08To: -1, transactions: 0 };
  }

  endTransaction(transaction: Transaction): void {
    this.transaction = undefined;
    if (transaction.read) this.finishLoops();
  }

  /** An ISA whose 16 separators readIsa found at `cuts`. */
  isa(position: number, cuts: readonly number[]): void {
    this.closeInterchange('another ISA follows');
    this.interchange = { position, isa12From: cuts[11]! + 1, isa12To: cuts[12]!, isa13From: cuts[12]! + 1, isa13To: cuts[13]!, groups: 0 };
  }

  gs(start: number, stop: number, position: number): void {
    this.closeGroup('another GS follows');
    const group = (this.group = this.openGroup(position));
    const codes = this.codes;
    const separator = this.separator;
    const gs06From = (group.gs06From = elementStart(codes, start, stop, separator, 6));
    const gs06To = (group.gs06To = elementEnd(codes, gs06From, stop, separator));
    // GS08 is two separators on from GS06's end.
    const gs08From = (group.gs08From = gs06From < 0 ? -1 : elementStart(codes, gs06To, stop, separator, 2));
    const gs08To = (group.gs08To = elementEnd(codes, gs08From, stop, separator));
    const interchange = this.interchange!;
    if (interchange.position) {
      const isa12From = interchange.isa12From;
      const isa12Length = interchange.isa12To - isa12From;
      if (gs08To - gs08From <= 0) this.env.push(`${at(position)}: GS08 missing`);
      else if (isa12Length > 0 && !sameCodes(codes, gs08From, Math.min(gs08To, gs08From + 5), isa12From, interchange.isa12To)) {
        this.env.push(`${at(position)}: GS08 version differs from ISA12`);
      }
    }
  }

  st(start: number, stop: number, position: number): void {
    this.closeTransaction('another ST follows');
    let group = this.group;
    if (!group) {
      this.env.push(`${at(position)}: ST outside a functional group`);
      group = this.group = this.openGroup(0);
    }
    const codes = this.codes;
    const st03To = this.element(start, stop, 3);
    const st03From = this.from;
    const gs08Length = group.gs08To - group.gs08From;
    if (st03To - st03From > 0 && gs08Length > 0 && !sameCodes(codes, st03From, st03To, group.gs08From, group.gs08To)) {
      this.env.push(`${at(position)}: ST03 version differs from GS08`);
    }
    group.transactions++;
    const st01To = this.element(start, stop, 1);
    const st01From = this.from;
    let read = false;
    if (codesAre(codes, st01From, st01To, '271')) {
      read = true;
      this.responses++;
      this.startLoops();
    } else if (codesAre(codes, st01From, st01To, '999')) {
      this.acknowledged = true;
    }
    const st02To = this.element(start, stop, 2);
    this.transaction = { position, st02From: this.from, st02To, body: 0, read };
  }

  se(start: number, stop: number, position: number): void {
    const transaction = this.transaction;
    if (!transaction) {
      this.env.push(`${at(position)}: SE without ST`);
      return;
    }
    const actual = transaction.body + 2;
    const se01To = this.element(start, stop, 1);
    const se01From = this.from;
    if (!countIsAt(this.codes, se01From, se01To, actual)) this.env.push(`${at(position)}: SE01 count ${this.countText(se01From, se01To)} != ${actual}`);
    const se02To = this.element(start, stop, 2);
    if (!sameCodes(this.codes, this.from, se02To, transaction.st02From, transaction.st02To)) this.env.push(`${at(position)}: SE02 does not match ST02`);
    this.endTransaction(transaction);
  }

  ge(start: number, stop: number, position: number): void {
    this.closeTransaction('GE follows');
    const group = this.group;
    if (!group) {
      this.env.push(`${at(position)}: GE without GS`);
      return;
    }
    const actual = group.transactions;
    const ge01To = this.element(start, stop, 1);
    const ge01From = this.from;
    if (!countIsAt(this.codes, ge01From, ge01To, actual)) this.env.push(`${at(position)}: GE01 count ${this.countText(ge01From, ge01To)} != ${actual}`);
    if (group.position) {
      const ge02To = this.element(start, stop, 2);
      if (!sameCodes(this.codes, this.from, ge02To, group.gs06From, group.gs06To)) this.env.push(`${at(position)}: GE02 does not match GS06`);
    }
    this.group = undefined;
  }

  iea(start: number, stop: number, position: number): void {
    this.closeGroup('IEA follows');
    const interchange = this.interchange;
    if (!interchange) {
      this.env.push(`${at(position)}: IEA without ISA`);
      return;
    }
    const actual = interchange.groups;
    const iea01To = this.element(start, stop, 1);
    const iea01From = this.from;
    if (!countIsAt(this.codes, iea01From, iea01To, actual)) this.env.push(`${at(position)}: IEA01 count ${this.countText(iea01From, iea01To)} != ${actual}`);
    if (interchange.position) {
      const iea02To = this.element(start, stop, 2);
      if (!sameCodes(this.codes, this.from, iea02To, interchange.isa13From, interchange.isa13To)) this.env.push(`${at(position)}: IEA02 does not match ISA13`);
    }
    this.interchange = undefined;
  }

  /** Any other segment: body of the open transaction, or a stray. `id` is only cut for the warning. */
  other(start: number, stop: number, position: number): boolean {
    const transaction = this.transaction;
    if (transaction) {
      transaction.body++;
      return transaction.read;
    }
    const idEnd = elementEnd(this.codes, start, stop, this.separator);
    const id = isSegmentIdAt(this.text, start, idEnd) ? this.text.slice(start, idEnd) : 'segment';
    this.env.push(`${at(position)}: ${id} outside a transaction set`);
    return false;
  }

  startLoops(): void {
    this.doc = { hasSubscriber: false, patientBenefits: [], subscriber: undefined, dependent: undefined, payerName: '', aaa: [], warnings: [] };
    this.docs.push(this.doc);
    this.levels = [];
    this.level = undefined;
    this.name = this.benefit = undefined;
    this.inLs = false;
    this.ebCount = 0;
    this.row = this.person = undefined;
    this.related = false;
  }

  /** Finds the separators of the segment at [start, stop) once, for `value` (up to element 9). */
  cutSegment(start: number, stop: number): void {
    const codes = this.codes;
    const separator = this.separator;
    let count = 0;
    for (let i = start; i < stop && count < 10; i++) if (codes[i] === separator) segmentCuts[count++] = i;
    for (let n = count; n < 11; n++) segmentCuts[n] = stop;
    segmentCount = count;
  }

  /** Element n (1–9) of the segment last cut, as a string ('' when absent or empty). */
  value(n: number): string {
    if (n > segmentCount) return '';
    const from = segmentCuts[n - 1]! + 1;
    const to = segmentCuts[n]!;
    return to > from ? this.text.slice(from, to) : '';
  }

  /** Whether element 1 of the segment last cut names a payer entity (PR, PRP, SEP, TTP), read in place. */
  namesPayer(): boolean {
    if (segmentCount < 1) return false;
    const codes = this.codes;
    const from = segmentCuts[0]! + 1;
    const length = segmentCuts[1]! - from;
    const a = codes[from];
    const b = codes[from + 1];
    if (length === 2) return a === 80 && b === 82; // PR
    if (length !== 3) return false;
    const c = codes[from + 2];
    return (a === 80 && b === 82 && c === 80) || (a === 83 && b === 69 && c === 80) || (a === 84 && b === 84 && c === 80); // PRP, SEP, TTP
  }

  /** The last level whose non-empty HL01 is codes[from, to), as a map keyed by HL01 would give. */
  latestWithId(from: number, to: number): Level | undefined {
    const levels = this.levels;
    const codes = this.codes;
    for (let i = levels.length - 1; i >= 0; i--) {
      const level = levels[i]!;
      if (level.idTo > level.idFrom && sameCodes(codes, level.idFrom, level.idTo, from, to)) return level;
    }
    return undefined;
  }

  hl(start: number, stop: number, position: number, doc: Doc271): void {
    const warnings = doc.warnings;
    if (this.inLs) warnings.push(`${at(position)}: HL inside LS/LE (no LE)`);
    this.inLs = false;
    this.name = this.benefit = undefined;
    this.row = this.person = undefined;
    this.related = false;
    const codes = this.codes;
    // One walk finds HL01..HL04.
    const separator = this.separator;
    const hl01 = elementStart(codes, start, stop, separator, 1);
    const hl01To = elementEnd(codes, hl01, stop, separator);
    const hl02 = hl01 >= 0 && hl01To < stop ? hl01To + 1 : -1;
    const hl02To = elementEnd(codes, hl02, stop, separator);
    const hl03 = hl02 >= 0 && hl02To < stop ? hl02To + 1 : -1;
    const hl03To = elementEnd(codes, hl03, stop, separator);
    const hl04 = hl03 >= 0 && hl03To < stop ? hl03To + 1 : -1;
    const hl04To = elementEnd(codes, hl04, stop, separator);
    const letter = levelAt(codes, hl03, hl03To);
    if (letter === '') warnings.push(`${at(position)}: HL03 is not a 271 level code`);
    const level = letter === '' ? '?' : letter;
    const created: Level = {
      position,
      level,
      loop: LOOP_2000[level]!,
      idFrom: hl01,
      idTo: hl01To,
      children: 0,
      announces: codesAre(codes, hl04, hl04To, '1'),
      name: undefined,
      benefits: [],
      parent: undefined,
      names: 0,
      person: undefined,
    };
    const parent = hl02To > hl02 ? this.latestWithId(hl02, hl02To) : undefined;
    created.parent = parent;
    if (parent) parent.children++;
    else if (hl02To > hl02) warnings.push(`${at(position)}: HL02 names no earlier HL`);
    if (hl01To > hl01 && this.latestWithId(hl01, hl01To)) warnings.push(`${at(position)}: HL01 repeats an earlier HL01`);
    this.levels.push(created);
    this.level = created;
  }

  nm1(start: number, stop: number, position: number, doc: Doc271): void {
    const level = this.level;
    if (!level) {
      doc.warnings.push(`${at(position)}: NM1 before the first HL`);
    } else if (this.benefit !== undefined) {
      if (!this.inLs) doc.warnings.push(`${at(position)}: NM1 after EB outside LS/LE`);
      // A 2120 entity of the current benefit; the first that names a payer is the row's.
      this.related = true;
      const row = this.row;
      if (row && row.entity === undefined) {
        this.cutSegment(start, stop);
        if (this.namesPayer()) row.entity = { name: this.value(3), idQualifier: this.value(8), id: this.value(9) };
      }
    } else {
      this.name = LOOP_2100[level.level];
      this.person = undefined;
      // The first 2100 of a 2000A names the payer.
      if (level.level === 'A' && level.name === undefined) {
        const to = this.element(start, stop, 3);
        level.name = this.from < 0 ? '' : this.text.slice(this.from, to);
      }
      // The first 2100 of a 2000C/D is the person.
      if (level.names++ === 0 && (level.level === 'C' || level.level === 'D')) {
        const person = (this.person = level.person = emptyPerson());
        this.cutSegment(start, stop);
        person.lastName = this.value(3);
        person.firstName = this.value(4);
        person.idQualifier = this.value(8);
        person.id = this.value(9);
      }
    }
  }

  /** DTP, MSG, REF, DMG, INS: kept for the current 2110 row or 2100 person (the containers of the loop model). */
  detail(start: number, stop: number, kind: number): void {
    if (this.benefit !== undefined) {
      const row = this.row;
      if (!row) return;
      this.cutSegment(start, stop);
      const inEntity = this.inLs && this.related;
      if (kind === REF) {
        if (this.value(1) !== 'IG') return;
        if (inEntity) {
          if (row.entityMemberRef === '') row.entityMemberRef = this.value(2);
        } else if (row.memberRef === '') row.memberRef = this.value(2);
        return;
      }
      if (inEntity) return;
      if (kind === DTP) addDate(row, { qualifier: this.value(1), format: this.value(2), value: this.value(3) });
      else if (kind === MSG) addMessage(row, this.value(1));
      return;
    }
    const person = this.person;
    if (!person || this.name === undefined) return;
    this.cutSegment(start, stop);
    switch (kind) {
      case DTP:
        person.dates.push({ qualifier: this.value(1), format: this.value(2), value: this.value(3) });
        break;
      case DMG:
        if (person.dateOfBirth === '' && this.value(1) === 'D8') person.dateOfBirth = this.value(2);
        break;
      case INS:
        if (person.relationship === '') person.relationship = this.value(2);
        break;
      case REF: {
        const qualifier = this.value(1);
        if (qualifier === '6P' && person.groupNumber === '' && person.groupName === '') {
          person.groupNumber = this.value(2);
          person.groupName = this.value(3);
        } else if (qualifier === '18' && person.planNumber === '') person.planNumber = this.value(2);
        break;
      }
    }
  }

  eb(start: number, stop: number, position: number, delimiters: Delimiters, doc: Doc271): void {
    const level = this.level;
    if (!level) {
      doc.warnings.push(`${at(position)}: EB before the first HL`);
      return;
    }
    if (this.inLs) doc.warnings.push(`${at(position)}: EB inside LS/LE (no LE)`);
    this.inLs = false;
    const order = this.ebCount++;
    this.related = false;
    if (level.level === 'C' || level.level === 'D') level.benefits.push((this.row = readBenefitAt(this.text, this.codes, start, stop, delimiters, order)));
    else {
      this.row = undefined;
      doc.warnings.push(`${at(position)}: EB under ${level.loop}`);
    }
    this.benefit = LOOP_2110[level.level];
  }

  ls(position: number, doc: Doc271): void {
    if (this.benefit === undefined) {
      doc.warnings.push(`${at(position)}: LS without a preceding EB`);
      return;
    }
    if (this.inLs) doc.warnings.push(`${at(position)}: LS inside LS/LE`);
    this.inLs = true;
    this.related = false;
  }

  le(position: number, doc: Doc271): void {
    if (!this.inLs) doc.warnings.push(`${at(position)}: LE without LS`);
    this.inLs = false;
    this.related = false;
  }

  aaa(start: number, stop: number, doc: Doc271): void {
    // AAA belongs to 2000x/2100x/2110x; one inside LS/LE is attributed to its 2110x.
    const loop = this.benefit ?? this.name ?? this.level?.loop ?? 'header';
    const text = this.text;
    const codeTo = this.element(start, stop, 3);
    const code = this.from < 0 ? '' : text.slice(this.from, codeTo);
    const actionTo = this.element(start, stop, 4);
    const action = this.from < 0 ? '' : text.slice(this.from, actionTo);
    doc.aaa.push(rejection(code, action, loop));
  }

  finishLoops(): void {
    const doc = this.doc!;
    if (this.inLs) doc.warnings.push('transaction set: LS without LE');
    let patient: Level | undefined;
    let subscriber: Level | undefined;
    let payer: Level | undefined;
    const levels = this.levels;
    for (let i = 0; i < levels.length; i++) {
      const hl = levels[i]!;
      if (hl.children === 0 && hl.announces) doc.warnings.push(`${at(hl.position)}: HL04 announces children but none follow`);
      if (hl.level === 'D') patient ??= hl;
      else if (hl.level === 'C') subscriber ??= hl;
      else if (hl.level === 'A') payer ??= hl;
    }
    doc.hasSubscriber = subscriber !== undefined;
    const chosen = patient ?? subscriber;
    if (chosen) doc.patientBenefits = chosen.benefits;
    if (patient) {
      doc.dependent = patient.person ?? emptyPerson();
      if (patient.parent?.level === 'C') subscriber = patient.parent;
    }
    doc.subscriber = subscriber?.person;
    if (payer?.name !== undefined) doc.payerName = payer.name;
    this.inLs = false;
  }
}

export function read271(text: string): Read271 {
  const warnings: string[] = [];
  const length = text.length;
  const start = startInterchange(text, warnings);
  if (!start.ok) return { ok: false, error: start.error, warnings };
  // Read synchronously to the end: the code array is scratch, valid until the next codesOf call.
  const { header, codes } = start;

  let delimiters: Delimiters = header.delimiters;
  const reader = new Reader(text, codes, delimiters.element.charCodeAt(0));
  reader.isa(1, header.cuts);
  let count = 1;
  let pos = header.end;
  let terminator = delimiters.segment;
  let terminatorCode = terminator.charCodeAt(0);
  let separator = delimiters.element;
  let separatorCode = separator.charCodeAt(0);

  while (pos < length) {
    let code = codes[pos]!;
    // Whitespace (CR/LF, indentation) between segments is not data.
    // (Every whitespace code is <= 32, so most segments skip the test.)
    while (code <= 32 && code !== terminatorCode && isWhitespace(code)) {
      pos++;
      if (pos >= length) break;
      code = codes[pos]!;
    }
    if (pos >= length) break;
    const start = pos;

    if (code === 73 && text.startsWith('ISA', pos)) {
      const next = readIsa(text, codes, pos, warnings);
      if (typeof next === 'string') {
        warnings.push(`segment ${count + 1} (offset ${pos}): ${next}; rest of input ignored`);
        break;
      }
      delimiters = next.delimiters;
      terminator = delimiters.segment;
      terminatorCode = terminator.charCodeAt(0);
      separator = delimiters.element;
      separatorCode = separator.charCodeAt(0);
      reader.separator = separatorCode;
      reader.isa(++count, next.cuts);
      pos = next.end;
      continue;
    }

    let end = text.indexOf(terminator, pos);
    if (end < 0) {
      end = length;
      warnings.push(`segment ${count + 1} (offset ${start}): no segment terminator before end of input`);
    }
    pos = end + 1;
    let stop = end;
    while (stop > start && codes[stop - 1]! <= 32 && isWhitespace(codes[stop - 1]!)) stop--;
    if (stop === start) continue; // empty segment
    const position = ++count;
    // Nearly every id is two or three of A-Z/0-9 followed by the separator: check that in place
    // (the separator is never alphanumeric) and turn it into a number (char codes, base 256) to
    // switch on. Anything else is not an id this reader acts on (key 0) and takes the general check.
    let key = 0;
    if (start + 2 <= stop) {
      const c0 = codes[start]!;
      const c1 = codes[start + 1]!;
      if (isIdChar(c0) && isIdChar(c1)) {
        const c2 = start + 2 === stop ? separatorCode : codes[start + 2]!;
        if (c2 === separatorCode) key = (c0 << 8) | c1;
        else if (isIdChar(c2) && (start + 3 === stop || codes[start + 3] === separatorCode)) key = (c0 << 16) | (c1 << 8) | c2;
      }
    }
    if (key === 0) {
      let idEnd = text.indexOf(separator, start);
      if (idEnd < 0 || idEnd > stop) idEnd = stop;
      if (!isSegmentIdAt(text, start, idEnd)) warnings.push(`segment ${position} (offset ${start}): invalid segment id`);
    }

    // Envelope ids end the body; only the loop ids below are read inside it.
    switch (key) {
      case 18259: // GS
        reader.gs(start, stop, position);
        continue;
      case 18245: // GE
        reader.ge(start, stop, position);
        continue;
      case 21332: // ST
        reader.st(start, stop, position);
        continue;
      case 21317: // SE
        reader.se(start, stop, position);
        continue;
      case 4801857: // IEA
        reader.iea(start, stop, position);
        continue;
    }
    if (!reader.other(start, stop, position)) continue;
    const doc = reader.doc!;
    switch (key) {
      case 18508: // HL
        reader.hl(start, stop, position, doc);
        break;
      case 5131569: // NM1
        reader.nm1(start, stop, position, doc);
        break;
      case 17730: // EB
        reader.eb(start, stop, position, delimiters, doc);
        break;
      case 4276545: // AAA
        reader.aaa(start, stop, doc);
        break;
      case 19539: // LS
        reader.ls(position, doc);
        break;
      case 19525: // LE
        reader.le(position, doc);
        break;
      case DTP:
      case MSG:
      case REF:
      case DMG:
      case INS:
        reader.detail(start, stop, key);
        break;
    }
  }
  reader.closeInterchange('end of input');
  // Tokenizer warnings first, then the envelope's (a push loop: concat is a slow generic builtin).
  const env = reader.env;
  for (let i = 0; i < env.length; i++) warnings.push(env[i]!);
  return { ok: true, warnings, responses: reader.responses, acknowledged: reader.acknowledged, docs: reader.docs };
}
