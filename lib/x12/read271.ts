/**
 * The 271 fast path for interpret271: tokenizer, envelope and 271 loop rules in one pass over the
 * text, with the same warnings, in the same order, as tokenize → readEnvelope → readLoops271.
 * Creating strings and objects is what parsing costs, so only the segments the summary or a check
 * reads become Segment objects (envelope segments, and HL/NM1/EB/AAA of the first 271); every
 * other segment is only counted. Nothing is cached across calls.
 */
import { readBenefitAt, type BenefitRow } from '../eligibility/benefit-row.js';
import { BOM, codesOf, isSegmentIdAt, isWhitespace, readIsa } from './scan.js';
import { element, elementIs, TextSegment, type Delimiters } from './segment.js';

/** One AAA and the loop it stood in (as readLoops271 attributes it). */
export interface Aaa271 {
  segment: TextSegment;
  loop: string;
}

/** What interpret271 needs of the first 271 transaction set. */
export interface Doc271 {
  /** Whether any HL has level code 22 (2000C). */
  hasSubscriber: boolean;
  /** EB rows of the patient loop (first 2000D, else first 2000C). */
  patientBenefits: BenefitRow[];
  /** NM103 of the first 2100A of the first 2000A ('' when absent). */
  payerName: string;
  aaa: Aaa271[];
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
      /** The first 271, when there is one. */
      doc: Doc271 | undefined;
    };

const LEVELS: Readonly<Record<string, string>> = { '20': 'A', '21': 'B', '22': 'C', '23': 'D' };
const LOOP_2000: Readonly<Record<string, string>> = { A: '2000A', B: '2000B', C: '2000C', D: '2000D', '?': '2000?' };
const LOOP_2100: Readonly<Record<string, string>> = { A: '2100A', B: '2100B', C: '2100C', D: '2100D', '?': '2100?' };
const LOOP_2110: Readonly<Record<string, string>> = { A: '2110A', B: '2110B', C: '2110C', D: '2110D', '?': '2110?' };
const SEGMENT_ID = /^[A-Z0-9]{2,3}$/;

interface Interchange {
  isa: TextSegment | undefined;
  groups: number;
}
interface Group {
  gs: TextSegment | undefined;
  transactions: number;
}
interface Transaction {
  st: TextSegment;
  body: number;
  /** Whether this is the first 271 (the one whose loops are read). */
  read: boolean;
}
interface Level {
  hl: TextSegment;
  level: string;
  loop: string;
  id: string;
  children: number;
  /** First NM1 of this level's 2100, kept for 2000A only (the payer name). */
  name: TextSegment | undefined;
  /** EB rows, read for 2000C/2000D only (the patient loop is one of those). */
  benefits: BenefitRow[];
}

/** A–Z or 0–9, the characters of a segment id. */
function isIdChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90);
}

/** A trailer count as the warning shows it: "missing", or its numeric value. */
function countText(segment: TextSegment): string {
  const count = element(segment, 1);
  return count === '' ? 'missing' : String(Number(count));
}

function at(position: number): string {
  return `segment ${position}`;
}

/** Envelope and loop state of one read; module-level functions over it avoid per-call closures. */
class Reader {
  readonly env: string[] = [];
  interchange: Interchange | undefined = undefined;
  group: Group | undefined = undefined;
  transaction: Transaction | undefined = undefined;
  responses = 0;
  acknowledged = false;
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

  closeTransaction(reason: string): void {
    const transaction = this.transaction;
    if (!transaction) return;
    this.env.push(`${at(transaction.st.position)}: transaction set has no SE (${reason})`);
    this.endTransaction(transaction);
  }

  closeGroup(reason: string): void {
    this.closeTransaction(reason);
    const group = this.group;
    if (!group) return;
    this.env.push(`${group.gs ? at(group.gs.position) : 'functional group'}: no GE (${reason})`);
    this.group = undefined;
  }

  closeInterchange(reason: string): void {
    this.closeGroup(reason);
    const interchange = this.interchange;
    if (!interchange) return;
    this.env.push(`${interchange.isa ? at(interchange.isa.position) : 'interchange'}: no IEA (${reason})`);
    this.interchange = undefined;
  }

  openGroup(gs: TextSegment | undefined): Group {
    let interchange = this.interchange;
    if (!interchange) {
      this.env.push(`${gs ? at(gs.position) : 'group'}: functional group outside an interchange`);
      interchange = this.interchange = { isa: undefined, groups: 0 };
    }
    interchange.groups++;
    return { gs, transactions: 0 };
  }

  endTransaction(transaction: Transaction): void {
    this.transaction = undefined;
    if (transaction.read) this.finishLoops();
  }

  isa(segment: TextSegment): void {
    this.closeInterchange('another ISA follows');
    this.interchange = { isa: segment, groups: 0 };
  }

  gs(segment: TextSegment): void {
    this.closeGroup('another GS follows');
    this.group = this.openGroup(segment);
    const isa = this.interchange?.isa;
    if (isa) {
      const isa12 = element(isa, 12);
      const gs08 = element(segment, 8);
      if (gs08 === '') this.env.push(`${at(segment.position)}: GS08 missing`);
      else if (isa12 !== '' && gs08.slice(0, 5) !== isa12) this.env.push(`${at(segment.position)}: GS08 version differs from ISA12`);
    }
  }

  st(segment: TextSegment): void {
    this.closeTransaction('another ST follows');
    let group = this.group;
    if (!group) {
      this.env.push(`${at(segment.position)}: ST outside a functional group`);
      group = this.group = this.openGroup(undefined);
    }
    const gs08 = group.gs ? element(group.gs, 8) : '';
    const st03 = element(segment, 3);
    if (st03 !== '' && gs08 !== '' && st03 !== gs08) this.env.push(`${at(segment.position)}: ST03 version differs from GS08`);
    group.transactions++;
    let read = false;
    if (elementIs(segment, 1, '271')) {
      read = this.responses === 0;
      this.responses++;
      if (read) this.startLoops();
    } else if (elementIs(segment, 1, '999')) {
      this.acknowledged = true;
    }
    this.transaction = { st: segment, body: 0, read };
  }

  se(segment: TextSegment): void {
    const transaction = this.transaction;
    if (!transaction) {
      this.env.push(`${at(segment.position)}: SE without ST`);
      return;
    }
    const actual = transaction.body + 2;
    if (!segment.countIs(1, actual)) this.env.push(`${at(segment.position)}: SE01 count ${countText(segment)} != ${actual}`);
    if (!segment.sameField(2, transaction.st, 2)) this.env.push(`${at(segment.position)}: SE02 does not match ST02`);
    this.endTransaction(transaction);
  }

  ge(segment: TextSegment): void {
    this.closeTransaction('GE follows');
    const group = this.group;
    if (!group) {
      this.env.push(`${at(segment.position)}: GE without GS`);
      return;
    }
    const actual = group.transactions;
    if (!segment.countIs(1, actual)) this.env.push(`${at(segment.position)}: GE01 count ${countText(segment)} != ${actual}`);
    if (group.gs && !segment.sameField(2, group.gs, 6)) this.env.push(`${at(segment.position)}: GE02 does not match GS06`);
    this.group = undefined;
  }

  iea(segment: TextSegment): void {
    this.closeGroup('IEA follows');
    const interchange = this.interchange;
    if (!interchange) {
      this.env.push(`${at(segment.position)}: IEA without ISA`);
      return;
    }
    const actual = interchange.groups;
    if (!segment.countIs(1, actual)) this.env.push(`${at(segment.position)}: IEA01 count ${countText(segment)} != ${actual}`);
    if (interchange.isa && !segment.sameField(2, interchange.isa, 13)) this.env.push(`${at(segment.position)}: IEA02 does not match ISA13`);
    this.interchange = undefined;
  }

  /** Any other segment: body of the open transaction, or a stray. `id` is only cut for the warning. */
  other(text: string, start: number, stop: number, position: number, separator: string): boolean {
    const transaction = this.transaction;
    if (transaction) {
      transaction.body++;
      return transaction.read;
    }
    let idEnd = text.indexOf(separator, start);
    if (idEnd < 0 || idEnd > stop) idEnd = stop;
    const id = text.slice(start, idEnd);
    this.env.push(`${at(position)}: ${SEGMENT_ID.test(id) ? id : 'segment'} outside a transaction set`);
    return false;
  }

  startLoops(): void {
    this.doc = { hasSubscriber: false, patientBenefits: [], payerName: '', aaa: [], warnings: [] };
  }

  latestWithId(id: string): Level | undefined {
    const levels = this.levels;
    for (let i = levels.length - 1; i >= 0; i--) if (levels[i]!.id === id) return levels[i];
    return undefined;
  }

  hl(segment: TextSegment, doc: Doc271): void {
    const warnings = doc.warnings;
    if (this.inLs) warnings.push(`${at(segment.position)}: HL inside LS/LE (no LE)`);
    this.inLs = false;
    this.name = this.benefit = undefined;
    // The four level codes compared in place; anything else takes the table lookup (and its warning).
    const letter = segment.is(3, '22') ? 'C' : segment.is(3, '23') ? 'D' : segment.is(3, '20') ? 'A' : segment.is(3, '21') ? 'B' : LEVELS[element(segment, 3)];
    if (!letter) warnings.push(`${at(segment.position)}: HL03 is not a 271 level code`);
    const level = letter ?? '?';
    const created: Level = {
      hl: segment,
      level,
      loop: LOOP_2000[level] ?? `2000${letter}`,
      id: element(segment, 1),
      children: 0,
      name: undefined,
      benefits: [],
    };
    const parentId = element(segment, 2);
    const parent = parentId === '' ? undefined : this.latestWithId(parentId);
    if (parent) parent.children++;
    else if (parentId !== '') warnings.push(`${at(segment.position)}: HL02 names no earlier HL`);
    if (created.id !== '' && this.latestWithId(created.id)) warnings.push(`${at(segment.position)}: HL01 repeats an earlier HL01`);
    this.levels.push(created);
    this.level = created;
  }

  /** True when the caller must hand this NM1 over as the payer name (first 2100 of a 2000A). */
  nm1(position: number, doc: Doc271): boolean {
    const level = this.level;
    if (!level) {
      doc.warnings.push(`${at(position)}: NM1 before the first HL`);
    } else if (this.benefit !== undefined) {
      if (!this.inLs) doc.warnings.push(`${at(position)}: NM1 after EB outside LS/LE`);
    } else {
      this.name = LOOP_2100[level.level] ?? `2100${level.level}`;
      return level.level === 'A' && level.name === undefined;
    }
    return false;
  }

  eb(text: string, codes: Uint16Array, start: number, stop: number, position: number, delimiters: Delimiters, doc: Doc271): void {
    const level = this.level;
    if (!level) {
      doc.warnings.push(`${at(position)}: EB before the first HL`);
      return;
    }
    if (this.inLs) doc.warnings.push(`${at(position)}: EB inside LS/LE (no LE)`);
    this.inLs = false;
    const order = this.ebCount++;
    if (level.level === 'C' || level.level === 'D') level.benefits.push(readBenefitAt(text, codes, start, stop, delimiters, order));
    else doc.warnings.push(`${at(position)}: EB under ${level.loop}`);
    this.benefit = LOOP_2110[level.level] ?? `2110${level.level}`;
  }

  ls(position: number, doc: Doc271): void {
    if (this.benefit === undefined) {
      doc.warnings.push(`${at(position)}: LS without a preceding EB`);
      return;
    }
    if (this.inLs) doc.warnings.push(`${at(position)}: LS inside LS/LE`);
    this.inLs = true;
  }

  le(position: number, doc: Doc271): void {
    if (!this.inLs) doc.warnings.push(`${at(position)}: LE without LS`);
    this.inLs = false;
  }

  aaa(segment: TextSegment, doc: Doc271): void {
    // AAA belongs to 2000x/2100x/2110x; one inside LS/LE is attributed to its 2110x.
    doc.aaa.push({ segment, loop: this.benefit ?? this.name ?? this.level?.loop ?? 'header' });
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
      if (hl.children === 0 && elementIs(hl.hl, 4, '1')) doc.warnings.push(`${at(hl.hl.position)}: HL04 announces children but none follow`);
      if (hl.level === 'D') patient ??= hl;
      else if (hl.level === 'C') subscriber ??= hl;
      else if (hl.level === 'A') payer ??= hl;
    }
    doc.hasSubscriber = subscriber !== undefined;
    const chosen = patient ?? subscriber;
    if (chosen) doc.patientBenefits = chosen.benefits;
    if (payer?.name) doc.payerName = element(payer.name, 3);
    this.inLs = false;
  }
}

export function read271(text: string): Read271 {
  const warnings: string[] = [];
  const length = text.length;
  let pos = 0;
  if (length > 0 && text.charCodeAt(0) === BOM) pos = 1;
  while (pos < length && isWhitespace(text.charCodeAt(pos))) pos++;
  const first = text.indexOf('ISA', pos);
  if (first < 0) return { ok: false, error: { message: 'no ISA segment found', offset: pos }, warnings };
  if (first > pos) warnings.push(`offset ${pos}: ${first - pos} characters before ISA ignored`);

  const header = readIsa(text, first, warnings);
  if (typeof header === 'string') return { ok: false, error: { message: header, offset: first }, warnings };

  // Read synchronously to the end: the scratch is only valid until the next codesOf call.
  const codes = codesOf(text);
  const reader = new Reader();
  let delimiters: Delimiters = header.delimiters;
  reader.isa(TextSegment.withSeparators('ISA', 1, first, text, header.end - 1, delimiters, header.cuts));
  let count = 1;
  pos = header.end;
  let terminator = delimiters.segment;
  let terminatorCode = terminator.charCodeAt(0);
  let separator = delimiters.element;
  let separatorCode = separator.charCodeAt(0);

  while (pos < length) {
    let code = codes[pos]!;
    // Whitespace (CR/LF, indentation) between segments is not data.
    while (code !== terminatorCode && isWhitespace(code)) {
      pos++;
      if (pos >= length) break;
      code = codes[pos]!;
    }
    if (pos >= length) break;
    const start = pos;

    if (code === 73 && text.startsWith('ISA', pos)) {
      const next = readIsa(text, pos, warnings);
      if (typeof next === 'string') {
        warnings.push(`segment ${count + 1} (offset ${pos}): ${next}; rest of input ignored`);
        break;
      }
      delimiters = next.delimiters;
      terminator = delimiters.segment;
      terminatorCode = terminator.charCodeAt(0);
      separator = delimiters.element;
      separatorCode = separator.charCodeAt(0);
      reader.isa(TextSegment.withSeparators('ISA', ++count, start, text, next.end - 1, delimiters, next.cuts));
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
    while (stop > start && isWhitespace(codes[stop - 1]!)) stop--;
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

    // Envelope ids end the body; only they and the loop ids below ever need a Segment.
    switch (key) {
      case 18259: // GS
        reader.gs(new TextSegment('GS', position, start, text, stop, delimiters));
        continue;
      case 18245: // GE
        reader.ge(new TextSegment('GE', position, start, text, stop, delimiters));
        continue;
      case 21332: // ST
        reader.st(new TextSegment('ST', position, start, text, stop, delimiters));
        continue;
      case 21317: // SE
        reader.se(new TextSegment('SE', position, start, text, stop, delimiters));
        continue;
      case 4801857: // IEA
        reader.iea(new TextSegment('IEA', position, start, text, stop, delimiters));
        continue;
    }
    if (!reader.other(text, start, stop, position, separator)) continue;
    const doc = reader.doc!;
    switch (key) {
      case 18508: // HL
        reader.hl(new TextSegment('HL', position, start, text, stop, delimiters), doc);
        break;
      case 5131569: // NM1
        if (reader.nm1(position, doc)) reader.level!.name = new TextSegment('NM1', position, start, text, stop, delimiters);
        break;
      case 17730: // EB
        reader.eb(text, codes, start, stop, position, delimiters, doc);
        break;
      case 4276545: // AAA
        reader.aaa(new TextSegment('AAA', position, start, text, stop, delimiters), doc);
        break;
      case 19539: // LS
        reader.ls(position, doc);
        break;
      case 19525: // LE
        reader.le(position, doc);
        break;
    }
  }
  reader.closeInterchange('end of input');
  // concat, not a length test: reading the array's length here made V8 deoptimize this function
  // again and again (array map changes between inputs with and without tokenizer warnings).
  return { ok: true, warnings: warnings.concat(reader.env), responses: reader.responses, acknowledged: reader.acknowledged, doc: reader.doc };
}
