/**
 * Groups tokenized segments into interchanges, functional groups and transaction sets, checking
 * trailer counts and control numbers. Every defect (missing trailers, count or control-number
 * mismatches, mixed versions, stray segments) is a warning; nothing throws.
 */
import { isSegmentIdAt } from '../../../lib/x12/scan.js';
import { element, type Segment } from './segment.js';

export interface Transaction {
  st: Segment;
  se?: Segment;
  /** Segments between ST and SE, exclusive. */
  body: Segment[];
  /** ST01 ("271", "999"). */
  setId: string;
  /** ST03, else the group's GS08. */
  version: string;
}

export interface FunctionalGroup {
  /** Absent when an ST appeared with no GS before it. */
  gs?: Segment;
  ge?: Segment;
  transactions: Transaction[];
}

export interface Interchange {
  /** Absent when a GS/ST appeared with no ISA before it. */
  isa?: Segment;
  iea?: Segment;
  groups: FunctionalGroup[];
}

export interface Envelope {
  interchanges: Interchange[];
  warnings: string[];
}

function at(segment: Segment): string {
  return `segment ${segment.position}`;
}

/** text === String(n) for a count n >= 0, without creating the string. */
function isCount(text: string, n: number): boolean {
  const length = text.length;
  if (length === 0 || length > 15 || (length > 1 && text.charCodeAt(0) === 48)) return false;
  let value = 0;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return false;
    value = value * 10 + c;
  }
  return value === n;
}

/** The grouping state while reading; module-level functions over it avoid per-call closures. */
interface State {
  warnings: string[];
  interchanges: Interchange[];
  interchange: Interchange | undefined;
  group: FunctionalGroup | undefined;
  transaction: Transaction | undefined;
}

function closeTransaction(state: State, reason: string): void {
  if (!state.transaction) return;
  state.warnings.push(`${at(state.transaction.st)}: transaction set has no SE (${reason})`);
  state.transaction = undefined;
}

function closeGroup(state: State, reason: string): void {
  closeTransaction(state, reason);
  const group = state.group;
  if (!group) return;
  state.warnings.push(`${group.gs ? at(group.gs) : 'functional group'}: no GE (${reason})`);
  state.group = undefined;
}

function closeInterchange(state: State, reason: string): void {
  closeGroup(state, reason);
  const interchange = state.interchange;
  if (!interchange) return;
  state.warnings.push(`${interchange.isa ? at(interchange.isa) : 'interchange'}: no IEA (${reason})`);
  state.interchange = undefined;
}

function openInterchange(state: State, isa?: Segment): Interchange {
  const created: Interchange = { groups: [] };
  if (isa) created.isa = isa;
  state.interchanges.push(created);
  return created;
}

function openGroup(state: State, gs?: Segment): FunctionalGroup {
  let interchange = state.interchange;
  if (!interchange) {
    state.warnings.push(`${gs ? at(gs) : 'group'}: functional group outside an interchange`);
    interchange = state.interchange = openInterchange(state);
  }
  const created: FunctionalGroup = { transactions: [] };
  if (gs) created.gs = gs;
  interchange.groups.push(created);
  return created;
}

export function readEnvelope(segments: readonly Segment[]): Envelope {
  const state: State = { warnings: [], interchanges: [], interchange: undefined, group: undefined, transaction: undefined };
  const warnings = state.warnings;

  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    switch (segment.id) {
      case 'ISA':
        closeInterchange(state, 'another ISA follows');
        state.interchange = openInterchange(state, segment);
        break;
      case 'GS': {
        closeGroup(state, 'another GS follows');
        state.group = openGroup(state, segment);
        const interchange = state.interchange;
        if (interchange?.isa) {
          const isa12 = element(interchange.isa, 12);
          const gs08 = element(segment, 8);
          if (gs08 === '') warnings.push(`${at(segment)}: GS08 missing`);
          else if (isa12 !== '' && gs08.slice(0, 5) !== isa12) warnings.push(`${at(segment)}: GS08 version differs from ISA12`);
        }
        break;
      }
      case 'ST': {
        closeTransaction(state, 'another ST follows');
        let group = state.group;
        if (!group) {
          warnings.push(`${at(segment)}: ST outside a functional group`);
          group = state.group = openGroup(state);
        }
        const gs08 = group.gs ? element(group.gs, 8) : '';
        const st03 = element(segment, 3);
        if (st03 !== '' && gs08 !== '' && st03 !== gs08) warnings.push(`${at(segment)}: ST03 version differs from GS08`);
        const transaction: Transaction = { st: segment, body: [], setId: element(segment, 1), version: st03 || gs08 };
        state.transaction = transaction;
        group.transactions.push(transaction);
        break;
      }
      case 'SE': {
        const transaction = state.transaction;
        if (!transaction) {
          warnings.push(`${at(segment)}: SE without ST`);
          break;
        }
        transaction.se = segment;
        const count = element(segment, 1);
        const actual = transaction.body.length + 2;
        if (!isCount(count, actual)) warnings.push(`${at(segment)}: SE01 count ${count === '' ? 'missing' : Number(count)} != ${actual}`);
        if (element(segment, 2) !== element(transaction.st, 2)) warnings.push(`${at(segment)}: SE02 does not match ST02`);
        state.transaction = undefined;
        break;
      }
      case 'GE': {
        closeTransaction(state, 'GE follows');
        const group = state.group;
        if (!group) {
          warnings.push(`${at(segment)}: GE without GS`);
          break;
        }
        group.ge = segment;
        const count = element(segment, 1);
        const actual = group.transactions.length;
        if (!isCount(count, actual)) warnings.push(`${at(segment)}: GE01 count ${count === '' ? 'missing' : Number(count)} != ${actual}`);
        if (group.gs && element(segment, 2) !== element(group.gs, 6)) warnings.push(`${at(segment)}: GE02 does not match GS06`);
        state.group = undefined;
        break;
      }
      case 'IEA': {
        closeGroup(state, 'IEA follows');
        const interchange = state.interchange;
        if (!interchange) {
          warnings.push(`${at(segment)}: IEA without ISA`);
          break;
        }
        interchange.iea = segment;
        const count = element(segment, 1);
        const actual = interchange.groups.length;
        if (!isCount(count, actual)) warnings.push(`${at(segment)}: IEA01 count ${count === '' ? 'missing' : Number(count)} != ${actual}`);
        if (interchange.isa && element(segment, 2) !== element(interchange.isa, 13)) warnings.push(`${at(segment)}: IEA02 does not match ISA13`);
        state.interchange = undefined;
        break;
      }
      default:
        if (state.transaction) state.transaction.body.push(segment);
        else warnings.push(`${at(segment)}: ${isSegmentIdAt(segment.id, 0, segment.id.length) ? segment.id : 'segment'} outside a transaction set`);
    }
  }
  closeInterchange(state, 'end of input');
  return { interchanges: state.interchanges, warnings };
}

/** All transaction sets in document order. */
export function transactionsOf(envelope: Envelope): Transaction[] {
  const out: Transaction[] = [];
  for (const interchange of envelope.interchanges) {
    for (const group of interchange.groups) for (const transaction of group.transactions) out.push(transaction);
  }
  return out;
}
