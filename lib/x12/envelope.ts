/**
 * Groups tokenized segments into interchanges, functional groups and transaction sets, checking
 * trailer counts and control numbers. Every defect (missing trailers, count or control-number
 * mismatches, mixed versions, stray segments) is a warning; nothing throws.
 */
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

export function readEnvelope(segments: readonly Segment[]): Envelope {
  const warnings: string[] = [];
  const interchanges: Interchange[] = [];
  let interchange: Interchange | undefined;
  let group: FunctionalGroup | undefined;
  let transaction: Transaction | undefined;

  const closeTransaction = (reason: string) => {
    if (!transaction) return;
    warnings.push(`${at(transaction.st)}: transaction set has no SE (${reason})`);
    transaction = undefined;
  };
  const closeGroup = (reason: string) => {
    closeTransaction(reason);
    if (!group) return;
    warnings.push(`${group.gs ? at(group.gs) : 'functional group'}: no GE (${reason})`);
    group = undefined;
  };
  const closeInterchange = (reason: string) => {
    closeGroup(reason);
    if (!interchange) return;
    warnings.push(`${interchange.isa ? at(interchange.isa) : 'interchange'}: no IEA (${reason})`);
    interchange = undefined;
  };
  const openInterchange = (isa?: Segment): Interchange => {
    const created: Interchange = { groups: [] };
    if (isa) created.isa = isa;
    interchanges.push(created);
    return created;
  };
  const openGroup = (gs?: Segment): FunctionalGroup => {
    if (!interchange) {
      warnings.push(`${gs ? at(gs) : 'group'}: functional group outside an interchange`);
      interchange = openInterchange();
    }
    const created: FunctionalGroup = { transactions: [] };
    if (gs) created.gs = gs;
    interchange.groups.push(created);
    return created;
  };

  for (const segment of segments) {
    switch (segment.id) {
      case 'ISA':
        closeInterchange('another ISA follows');
        interchange = openInterchange(segment);
        break;
      case 'GS':
        closeGroup('another GS follows');
        group = openGroup(segment);
        if (interchange?.isa) {
          const isa12 = element(interchange.isa, 12);
          const gs08 = element(segment, 8);
          if (gs08 === '') warnings.push(`${at(segment)}: GS08 missing`);
          else if (isa12 !== '' && gs08.slice(0, 5) !== isa12) warnings.push(`${at(segment)}: GS08 version differs from ISA12`);
        }
        break;
      case 'ST': {
        closeTransaction('another ST follows');
        if (!group) {
          warnings.push(`${at(segment)}: ST outside a functional group`);
          group = openGroup();
        }
        const gs08 = group.gs ? element(group.gs, 8) : '';
        const st03 = element(segment, 3);
        if (st03 !== '' && gs08 !== '' && st03 !== gs08) warnings.push(`${at(segment)}: ST03 version differs from GS08`);
        transaction = { st: segment, body: [], setId: element(segment, 1), version: st03 || gs08 };
        group.transactions.push(transaction);
        break;
      }
      case 'SE':
        if (!transaction) {
          warnings.push(`${at(segment)}: SE without ST`);
          break;
        }
        transaction.se = segment;
        {
          const count = element(segment, 1);
          const actual = transaction.body.length + 2;
          if (count !== String(actual)) warnings.push(`${at(segment)}: SE01 count ${count === '' ? 'missing' : Number(count)} != ${actual}`);
          if (element(segment, 2) !== element(transaction.st, 2)) warnings.push(`${at(segment)}: SE02 does not match ST02`);
        }
        transaction = undefined;
        break;
      case 'GE':
        closeTransaction('GE follows');
        if (!group) {
          warnings.push(`${at(segment)}: GE without GS`);
          break;
        }
        group.ge = segment;
        {
          const count = element(segment, 1);
          const actual = group.transactions.length;
          if (count !== String(actual)) warnings.push(`${at(segment)}: GE01 count ${count === '' ? 'missing' : Number(count)} != ${actual}`);
          if (group.gs && element(segment, 2) !== element(group.gs, 6)) warnings.push(`${at(segment)}: GE02 does not match GS06`);
        }
        group = undefined;
        break;
      case 'IEA':
        closeGroup('IEA follows');
        if (!interchange) {
          warnings.push(`${at(segment)}: IEA without ISA`);
          break;
        }
        interchange.iea = segment;
        {
          const count = element(segment, 1);
          const actual = interchange.groups.length;
          if (count !== String(actual)) warnings.push(`${at(segment)}: IEA01 count ${count === '' ? 'missing' : Number(count)} != ${actual}`);
          if (interchange.isa && element(segment, 2) !== element(interchange.isa, 13)) warnings.push(`${at(segment)}: IEA02 does not match ISA13`);
        }
        interchange = undefined;
        break;
      default:
        if (transaction) transaction.body.push(segment);
        else warnings.push(`${at(segment)}: ${/^[A-Z0-9]{2,3}$/.test(segment.id) ? segment.id : 'segment'} outside a transaction set`);
    }
  }
  closeInterchange('end of input');
  return { interchanges, warnings };
}

/** All transaction sets in document order. */
export function transactionsOf(envelope: Envelope): Transaction[] {
  const out: Transaction[] = [];
  for (const interchange of envelope.interchanges) {
    for (const group of interchange.groups) out.push(...group.transactions);
  }
  return out;
}
