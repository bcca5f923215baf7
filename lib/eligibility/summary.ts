/**
 * CONTRACT §4.3: from the 271 loop model to the benefit blocks. Each of the 20 slots is filled on
 * its own by the best fitting EB row of the patient's loop (2000D when present, else 2000C).
 */
import { element, elementIs, TextSegment, values, type Segment } from '../x12/segment.js';
import type { HlLoop, Transaction271 } from '../x12/loops271.js';
import { isDecimal, max, moneyOrNA, moneyTextOrNA, parseDecimal, percentTextOrNA, subtract, ZERO, type Decimal } from './format.js';
import { NOT_AVAILABLE, type BenefitBlock, type BenefitFigures, type BenefitSummary, type CoverageStatus } from './types.js';

type Field = 'copay' | 'coinsurance' | 'deductible' | 'stopLoss';
type Network = 'in' | 'out';
type Level = 'individual' | 'family';

interface Row {
  order: number;
  /** Rank of EB03 for the row's field (SERVICE_ORDER); rows that rank -1 are never kept. */
  service: number;
  eb06: string;
  /** TIME_ORDER rank of EB06 (deductible totals and stop-loss). */
  total: number;
  /** NETWORK_RANK of EB12, in and out of network. */
  networkIn: number;
  networkOut: number;
  /** levelRank of EB02 for the row's field, individual and family. */
  individual: number;
  family: number;
  /** EB07/EB08 raw text; turned into figures only for the rows that win a slot, once per call. */
  eb07: string;
  eb08: string;
  decimal07: Decimal | null | undefined;
  money07: string | undefined;
  percent08: string | undefined;
}

/** EB01 → the field its rows feed, and which value they must carry. */
const FIELD_OF_EB01: Readonly<Record<string, { field: Field; value: 'eb07' | 'eb08' }>> = {
  B: { field: 'copay', value: 'eb07' },
  A: { field: 'coinsurance', value: 'eb08' },
  C: { field: 'deductible', value: 'eb07' },
  G: { field: 'stopLoss', value: 'eb07' },
};

/** EB03 preference per field; '' stands for "no EB03". Index = rank. */
const SERVICE_ORDER: Readonly<Record<Field, readonly string[]>> = {
  copay: ['30', '98', '', '1'],
  coinsurance: ['30', '98', '', '1'],
  deductible: ['30', '', '1'],
  stopLoss: ['30', '', '1'],
};

/** EB06 preference for deductible totals and stop-loss. */
const TIME_ORDER: readonly string[] = ['23', '22', '21', '25', ''];

const NETWORK_RANK: Readonly<Record<Network, Readonly<Record<string, number>>>> = {
  in: { Y: 0, W: 1, U: 1, '': 1 },
  out: { N: 0, W: 1, U: 1, '': 1 },
};

/** EB02 rank per level; empty EB02 is the family's only for copay and coinsurance. */
function levelRank(eb02: string, level: Level, field: Field): number {
  if (level === 'individual') return eb02 === 'IND' ? 0 : eb02 === 'EMP' ? 1 : eb02 === '' ? 2 : -1;
  if (eb02 === 'FAM') return 0;
  return eb02 === '' && (field === 'copay' || field === 'coinsurance') ? 2 : -1;
}

/** Best (lowest) rank of the EB03 codes (repetitions, and components when ISA11 collided with ISA16). */
function serviceRank(eb: Segment, field: Field): number {
  const order = SERVICE_ORDER[field];
  if (eb instanceof TextSegment) {
    const rank = eb.rankCodes(3, order);
    return rank === -2 ? order.indexOf('') : rank;
  }
  const repetitions = values(eb, 3);
  let best = -1;
  let codes = 0;
  for (let r = 0; r < repetitions.length; r++) {
    const repetition = repetitions[r]!;
    for (let c = 0; c < repetition.length; c++) {
      const code = repetition[c]!;
      if (code === '') continue;
      codes++;
      const rank = order.indexOf(code);
      if (rank >= 0 && (best < 0 || rank < best)) best = rank;
    }
  }
  return codes === 0 ? order.indexOf('') : best;
}

/** How a slot ranks a row's EB06: any value, the total preference, or one exact code. */
const ANY_TIME = 0;
const TOTAL_TIME = 1;
const EXACT_TIME = 2;

/**
 * The best row for a slot. Ranks are compared in order: service, time, network, level, then
 * document order (inline, so no key arrays are built per candidate).
 */
function best(rows: readonly Row[], network: Network, level: Level, timeMode: number, code: string): Row | undefined {
  let winner: Row | undefined;
  let ws = 0;
  let wt = 0;
  let wn = 0;
  let wl = 0;
  let wo = 0;
  const inNetwork = network === 'in';
  const individual = level === 'individual';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const s = row.service;
    const t = timeMode === ANY_TIME ? 0 : timeMode === TOTAL_TIME ? row.total : row.eb06 === code ? 0 : -1;
    if (t < 0) continue;
    const n = inNetwork ? row.networkIn : row.networkOut;
    if (n < 0) continue;
    const l = individual ? row.individual : row.family;
    if (l < 0) continue;
    const o = row.order;
    if (
      winner === undefined ||
      (s !== ws ? s < ws : t !== wt ? t < wt : n !== wn ? n < wn : l !== wl ? l < wl : o !== wo ? o < wo : false)
    ) {
      winner = row;
      ws = s;
      wt = t;
      wn = n;
      wl = l;
      wo = o;
    }
  }
  return winner;
}

function decimal07(row: Row): Decimal | null {
  if (row.decimal07 === undefined) row.decimal07 = parseDecimal(row.eb07);
  return row.decimal07;
}

function money07(row: Row | undefined): string {
  if (row === undefined) return NOT_AVAILABLE;
  return (row.money07 ??= moneyTextOrNA(row.eb07));
}

function percent08(row: Row | undefined): string {
  if (row === undefined) return NOT_AVAILABLE;
  return (row.percent08 ??= percentTextOrNA(row.eb08));
}

function figures(rows: Readonly<Record<Field, Row[]>>, network: Network, level: Level): BenefitFigures {
  const deductible = rows.deductible;
  const totalRow = deductible.length === 0 ? undefined : best(deductible, network, level, TOTAL_TIME, '');
  const remainingRow = deductible.length === 0 ? undefined : best(deductible, network, level, EXACT_TIME, '29');
  let remainingText: string;
  if (remainingRow) {
    remainingText = money07(remainingRow);
  } else if (totalRow && decimal07(totalRow)) {
    const usedRow = best(deductible, network, level, EXACT_TIME, '24');
    const used = usedRow ? decimal07(usedRow) : null;
    remainingText = used ? moneyOrNA(max(subtract(decimal07(totalRow)!, used), ZERO)) : NOT_AVAILABLE;
  } else {
    remainingText = NOT_AVAILABLE;
  }
  return {
    copay: rows.copay.length === 0 ? NOT_AVAILABLE : money07(best(rows.copay, network, level, ANY_TIME, '')),
    deductible: { total: totalRow ? money07(totalRow) : NOT_AVAILABLE, remaining: remainingText },
    coinsurance: rows.coinsurance.length === 0 ? NOT_AVAILABLE : percent08(best(rows.coinsurance, network, level, ANY_TIME, '')),
    stopLoss: rows.stopLoss.length === 0 ? NOT_AVAILABLE : money07(best(rows.stopLoss, network, level, TOTAL_TIME, '')),
  };
}

function block(rows: Readonly<Record<Field, Row[]>>, network: Network): BenefitBlock {
  return { individual: figures(rows, network, 'individual'), family: figures(rows, network, 'family') };
}

function firstAt(doc: Transaction271, letter: string): HlLoop | undefined {
  const levels = doc.levels;
  for (let i = 0; i < levels.length; i++) if (levels[i]!.level === letter) return levels[i];
  return undefined;
}

/** 2000D when the transaction has one, else 2000C. */
export function patientLoop(doc: Transaction271): HlLoop | undefined {
  return firstAt(doc, 'D') ?? firstAt(doc, 'C');
}

export function coverageStatusOf(ebs: readonly Segment[]): CoverageStatus {
  let inactive = false;
  for (const eb of ebs) {
    const code = element(eb, 1);
    if (code === '1' || code === '2' || code === '3' || code === '4' || code === '5') return 'Active';
    if (code === '6' || code === '7' || code === '8') inactive = true;
  }
  return inactive ? 'Inactive' : 'Unknown';
}

export function payerNameOf(doc: Transaction271): string | undefined {
  const source = firstAt(doc, 'A');
  const name = source?.names[0] ? element(source.names[0].nm1, 3) : '';
  return name === '' ? undefined : name;
}

/** The benefit summary of a 271 (its patient loop). Call only when a 2000C exists. */
export function summarize(doc: Transaction271): BenefitSummary {
  const patient = patientLoop(doc);
  return summarizeBenefits(patient ? patient.benefits : [], payerNameOf(doc));
}

/** One EB of the patient loop and its document order among the transaction's EBs. */
export interface BenefitRow {
  eb: Segment;
  order: number;
}

/** The summary from the patient loop's EBs and the 2100A NM103 ('' or undefined when absent). */
export function summarizeBenefits(benefits: readonly BenefitRow[], payerName: string | undefined): BenefitSummary {
  let partB = false;
  for (let i = 0; i < benefits.length && !partB; i++) partB = elementIs(benefits[i]!.eb, 4, 'MB');

  const rows: Record<Field, Row[]> = { copay: [], coinsurance: [], deductible: [], stopLoss: [] };
  const ebs: Segment[] = new Array(benefits.length);
  for (let i = 0; i < benefits.length; i++) {
    const benefit = benefits[i]!;
    const eb = benefit.eb;
    ebs[i] = eb;
    const eb01 = element(eb, 1);
    // Own keys only: an EB01 such as "constructor" must not reach Object.prototype.
    const kind = Object.hasOwn(FIELD_OF_EB01, eb01) ? FIELD_OF_EB01[eb01] : undefined;
    if (!kind) continue;
    if (!elementIs(eb, 13, '')) continue; // procedure-specific rows say nothing about the plan's figures
    if (partB && elementIs(eb, 4, 'MA')) continue; // the patient is billed under Part B
    // A row lacking the value (or with an unreadable one), or whose EB03 fits no slot, wins nothing.
    if (!isDecimal(element(eb, kind.value === 'eb07' ? 7 : 8))) continue;
    const service = serviceRank(eb, kind.field);
    if (service < 0) continue;
    const field = kind.field;
    const eb02 = element(eb, 2);
    const eb06 = element(eb, 6);
    const eb12 = element(eb, 12);
    rows[field].push({
      order: benefit.order,
      service,
      eb06,
      total: TIME_ORDER.indexOf(eb06),
      networkIn: NETWORK_RANK.in[eb12] ?? -1,
      networkOut: NETWORK_RANK.out[eb12] ?? -1,
      individual: levelRank(eb02, 'individual', field),
      family: levelRank(eb02, 'family', field),
      eb07: element(eb, 7),
      eb08: element(eb, 8),
      decimal07: undefined,
      money07: undefined,
      percent08: undefined,
    });
  }

  const summary: BenefitSummary = {
    inNetwork: block(rows, 'in'),
    outNetwork: block(rows, 'out'),
    coverageStatus: coverageStatusOf(ebs),
  };
  if (payerName !== undefined && payerName !== '') summary.payerName = payerName;
  return summary;
}
