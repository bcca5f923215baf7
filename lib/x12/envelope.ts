/**
 * Groups segments into interchanges, functional groups and transaction sets (ISA/IEA, GS/GE,
 * ST/SE), checking trailer counts, control numbers and versions (docs/eligibility.md#how-the-271-is-read).
 * Every defect (missing trailers, count or control-number mismatches, mixed versions, stray
 * segments) is a warning; nothing throws. Warnings carry positions, never values.
 */
import { isSegmentId } from './isa.js';
import { element, SEGMENT, type Segment } from './segment.js';

interface Transaction {
  st: Segment;
  /** Segments between ST and SE, exclusive. */
  body: Segment[];
  /** ST01 ("271", "999"). */
  setId: string;
}

export interface Envelope {
  /** Every transaction set, in document order. */
  transactions: Transaction[];
  warnings: string[];
}

/** An open interchange or group: its header (absent when opened by a stray GS or ST) and what it has counted. */
interface Open {
  header: Segment | undefined;
  count: number;
}

interface State {
  warnings: string[];
  transactions: Transaction[];
  interchange: Open | undefined;
  group: Open | undefined;
  transaction: Transaction | undefined;
}

const at = (segment: Segment): string => `segment ${segment.position}`;

/** The warning text of a trailer count: "missing", or its numeric value. */
const countText = (count: string): string => (count === '' ? 'missing' : String(Number(count)));

/** Whether text is exactly String(n) for a count n >= 0. */
const isCount = (text: string, n: number): boolean => /^(0|[1-9][0-9]{0,14})$/.test(text) && Number(text) === n;

function closeTransaction(state: State, reason: string): void {
  if (!state.transaction) return;
  state.warnings.push(`${at(state.transaction.st)}: transaction set has no SE (${reason})`);
  state.transaction = undefined;
}

function closeGroup(state: State, reason: string): void {
  closeTransaction(state, reason);
  if (!state.group) return;
  state.warnings.push(`${state.group.header ? at(state.group.header) : 'functional group'}: no GE (${reason})`);
  state.group = undefined;
}

function closeInterchange(state: State, reason: string): void {
  closeGroup(state, reason);
  if (!state.interchange) return;
  state.warnings.push(`${state.interchange.header ? at(state.interchange.header) : 'interchange'}: no IEA (${reason})`);
  state.interchange = undefined;
}

function openGroup(state: State, gs: Segment | undefined): Open {
  if (!state.interchange) {
    state.warnings.push(`${gs ? at(gs) : 'group'}: functional group outside an interchange`);
    state.interchange = { header: undefined, count: 0 };
  }
  state.interchange.count++;
  return { header: gs, count: 0 };
}

/** What each envelope segment does; any other segment is body of the open transaction, or a stray. */
const ENVELOPE: ReadonlyMap<string, (state: State, segment: Segment) => void> = new Map([
  [
    SEGMENT.interchangeHeader,
    (state, isa) => {
      closeInterchange(state, 'another ISA follows');
      state.interchange = { header: isa, count: 0 };
    },
  ],
  [
    SEGMENT.groupHeader,
    (state, gs) => {
      closeGroup(state, 'another GS follows');
      state.group = openGroup(state, gs);
      const isa = state.interchange!.header;
      if (!isa) return;
      const isa12 = element(isa, 12);
      const gs08 = element(gs, 8);
      if (gs08 === '') state.warnings.push(`${at(gs)}: GS08 missing`);
      else if (isa12 !== '' && gs08.slice(0, 5) !== isa12) state.warnings.push(`${at(gs)}: GS08 version differs from ISA12`);
    },
  ],
  [
    SEGMENT.transactionHeader,
    (state, st) => {
      closeTransaction(state, 'another ST follows');
      if (!state.group) {
        state.warnings.push(`${at(st)}: ST outside a functional group`);
        state.group = openGroup(state, undefined);
      }
      const gs08 = state.group.header ? element(state.group.header, 8) : '';
      const st03 = element(st, 3);
      if (st03 !== '' && gs08 !== '' && st03 !== gs08) state.warnings.push(`${at(st)}: ST03 version differs from GS08`);
      state.group.count++;
      state.transaction = { st, body: [], setId: element(st, 1) };
      state.transactions.push(state.transaction);
    },
  ],
  [
    SEGMENT.transactionTrailer,
    (state, se) => {
      const transaction = state.transaction;
      if (!transaction) {
        state.warnings.push(`${at(se)}: SE without ST`);
        return;
      }
      const actual = transaction.body.length + 2;
      if (!isCount(element(se, 1), actual)) state.warnings.push(`${at(se)}: SE01 count ${countText(element(se, 1))} != ${actual}`);
      if (element(se, 2) !== element(transaction.st, 2)) state.warnings.push(`${at(se)}: SE02 does not match ST02`);
      state.transaction = undefined;
    },
  ],
  [
    SEGMENT.groupTrailer,
    (state, ge) => {
      closeTransaction(state, 'GE follows');
      const group = state.group;
      if (!group) {
        state.warnings.push(`${at(ge)}: GE without GS`);
        return;
      }
      if (!isCount(element(ge, 1), group.count)) state.warnings.push(`${at(ge)}: GE01 count ${countText(element(ge, 1))} != ${group.count}`);
      if (group.header && element(ge, 2) !== element(group.header, 6)) state.warnings.push(`${at(ge)}: GE02 does not match GS06`);
      state.group = undefined;
    },
  ],
  [
    SEGMENT.interchangeTrailer,
    (state, iea) => {
      closeGroup(state, 'IEA follows');
      const interchange = state.interchange;
      if (!interchange) {
        state.warnings.push(`${at(iea)}: IEA without ISA`);
        return;
      }
      if (!isCount(element(iea, 1), interchange.count)) state.warnings.push(`${at(iea)}: IEA01 count ${countText(element(iea, 1))} != ${interchange.count}`);
      if (interchange.header && element(iea, 2) !== element(interchange.header, 13)) state.warnings.push(`${at(iea)}: IEA02 does not match ISA13`);
      state.interchange = undefined;
    },
  ],
]);

export function readEnvelope(segments: readonly Segment[]): Envelope {
  const state: State = { warnings: [], transactions: [], interchange: undefined, group: undefined, transaction: undefined };
  for (const segment of segments) {
    const step = ENVELOPE.get(segment.id);
    if (step) step(state, segment);
    else if (state.transaction) state.transaction.body.push(segment);
    else state.warnings.push(`${at(segment)}: ${isSegmentId(segment.id) ? segment.id : 'segment'} outside a transaction set`);
  }
  closeInterchange(state, 'end of input');
  return { transactions: state.transactions, warnings: state.warnings };
}
