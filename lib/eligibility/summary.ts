/**
 * CONTRACT §4.3: from the 271 loop model to the benefit blocks. Each of the 20 slots is filled on
 * its own by the best fitting EB row of the patient's loop (2000D when present, else 2000C).
 */
import { element, values, type Segment } from '../x12/segment.js';
import type { HlLoop, Transaction271 } from '../x12/loops271.js';
import { isDecimal, max, moneyOrNA, parseDecimal, percentOrNA, subtract, ZERO, type Decimal } from './format.js';
import type { BenefitBlock, BenefitFigures, BenefitSummary, CoverageStatus } from './types.js';

type Field = 'copay' | 'coinsurance' | 'deductible' | 'stopLoss';
type Network = 'in' | 'out';
type Level = 'individual' | 'family';

interface Row {
  order: number;
  eb01: string;
  eb02: string;
  /** EB03 codes (repetitions, and components when ISA11 collided with ISA16). */
  services: string[];
  eb06: string;
  /** EB07/EB08 raw text; parsed (BigInt) only for the rows that win a slot. */
  eb07: string;
  eb08: string;
  eb12: string;
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

function serviceRank(services: readonly string[], field: Field): number {
  const order = SERVICE_ORDER[field];
  if (services.length === 0) return order.indexOf('');
  let best = -1;
  for (const code of services) {
    const rank = order.indexOf(code);
    if (rank >= 0 && code !== '' && (best < 0 || rank < best)) best = rank;
  }
  return best;
}

function serviceCodes(eb: Segment): string[] {
  const codes: string[] = [];
  for (const repetition of values(eb, 3)) for (const code of repetition) if (code !== '') codes.push(code);
  return codes;
}

/** Ranks compared in order: service, time, network, level, then document order. */
type Key = [number, number, number, number, number];

function better(a: Key, b: Key): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}

/** The best row for a slot; `time` ranks a row's EB06 (-1 = does not fit). */
function best(rows: readonly Row[], field: Field, network: Network, level: Level, time: (eb06: string) => number): Row | undefined {
  let winner: Row | undefined;
  let winnerKey: Key | undefined;
  for (const row of rows) {
    const s = serviceRank(row.services, field);
    if (s < 0) continue;
    const t = time(row.eb06);
    if (t < 0) continue;
    const n = NETWORK_RANK[network][row.eb12] ?? -1;
    if (n < 0) continue;
    const l = levelRank(row.eb02, level, field);
    if (l < 0) continue;
    const key: Key = [s, t, n, l, row.order];
    if (!winnerKey || better(key, winnerKey)) {
      winner = row;
      winnerKey = key;
    }
  }
  return winner;
}

const anyTime = () => 0;
const totalTime = (eb06: string) => TIME_ORDER.indexOf(eb06);
const exactly = (code: string) => (eb06: string) => (eb06 === code ? 0 : -1);

const amount = (text: string | undefined): Decimal | null => (text === undefined ? null : parseDecimal(text));

function figures(rows: Readonly<Record<Field, Row[]>>, network: Network, level: Level): BenefitFigures {
  const copay = amount(best(rows.copay, 'copay', network, level, anyTime)?.eb07);
  const coinsurance = amount(best(rows.coinsurance, 'coinsurance', network, level, anyTime)?.eb08);
  const total = amount(best(rows.deductible, 'deductible', network, level, totalTime)?.eb07);
  const stopLoss = amount(best(rows.stopLoss, 'stopLoss', network, level, totalTime)?.eb07);

  let remaining = amount(best(rows.deductible, 'deductible', network, level, exactly('29'))?.eb07);
  if (!remaining && total) {
    const used = amount(best(rows.deductible, 'deductible', network, level, exactly('24'))?.eb07);
    if (used) remaining = max(subtract(total, used), ZERO);
  }
  return {
    copay: moneyOrNA(copay),
    deductible: { total: moneyOrNA(total), remaining: moneyOrNA(remaining) },
    coinsurance: percentOrNA(coinsurance),
    stopLoss: moneyOrNA(stopLoss),
  };
}

function block(rows: Readonly<Record<Field, Row[]>>, network: Network): BenefitBlock {
  return { individual: figures(rows, network, 'individual'), family: figures(rows, network, 'family') };
}

/** 2000D when the transaction has one, else 2000C. */
export function patientLoop(doc: Transaction271): HlLoop | undefined {
  return doc.levels.find((l) => l.level === 'D') ?? doc.levels.find((l) => l.level === 'C');
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
  const source = doc.levels.find((l) => l.level === 'A');
  const name = source?.names[0] ? element(source.names[0].nm1, 3) : '';
  return name === '' ? undefined : name;
}

/** The benefit summary of a 271 (its patient loop). Call only when a 2000C exists. */
export function summarize(doc: Transaction271): BenefitSummary {
  const patient = patientLoop(doc);
  const ebs = patient ? patient.benefits.map((b) => b.eb) : [];
  const partB = ebs.some((eb) => element(eb, 4) === 'MB');

  const rows: Record<Field, Row[]> = { copay: [], coinsurance: [], deductible: [], stopLoss: [] };
  patient?.benefits.forEach((benefit) => {
    const eb = benefit.eb;
    const kind = FIELD_OF_EB01[element(eb, 1)];
    if (!kind) return;
    if (element(eb, 13) !== '') return; // procedure-specific rows say nothing about the plan's figures
    if (partB && element(eb, 4) === 'MA') return; // the patient is billed under Part B
    const row: Row = {
      order: benefit.order,
      eb01: element(eb, 1),
      eb02: element(eb, 2),
      services: serviceCodes(eb),
      eb06: element(eb, 6),
      eb07: element(eb, 7),
      eb08: element(eb, 8),
      eb12: element(eb, 12),
    };
    if (!isDecimal(row[kind.value])) return; // a row lacking the value (or with an unreadable one)
    rows[kind.field].push(row);
  });

  const summary: BenefitSummary = {
    inNetwork: block(rows, 'in'),
    outNetwork: block(rows, 'out'),
    coverageStatus: coverageStatusOf(ebs),
  };
  const payerName = payerNameOf(doc);
  if (payerName !== undefined) summary.payerName = payerName;
  return summary;
}
