/**
 * CONTRACT §4.3: from the 271 loop model to the benefit blocks. Each of the 20 slots is filled on
 * its own by the best fitting EB row of the patient's loop (2000D when present, else 2000C).
 * Rows arrive already read (benefit-row.ts); this module only ranks them and formats winners.
 */
import { element } from '../x12/segment.js';
import type { HlLoop, Transaction271 } from '../x12/loops271.js';
import { ACTIVE, COINSURANCE, COPAY, DEDUCTIBLE, INACTIVE, NO_FIELD, PART_A, PART_B, readBenefitRows, STOP_LOSS, type BenefitRow } from './benefit-row.js';
import { max, moneyOrNA, moneyTextOrNA, parseDecimal, percentTextOrNA, subtract, ZERO, type Decimal } from './format.js';
import { NOT_AVAILABLE, type BenefitBlock, type BenefitFigures, type BenefitSummary, type CoverageStatus } from './types.js';

/** A row that can fill a slot, with its figure formatted on first use (once per call). */
interface Candidate {
  row: BenefitRow;
  decimal: Decimal | null | undefined;
  text: string | undefined;
}

/** Candidates per field, indexed by COPAY, COINSURANCE, DEDUCTIBLE, STOP_LOSS. */
type Candidates = readonly Candidate[][];

/** How a slot ranks a row's EB06: any value, the total preference, or one exact code. */
const ANY_TIME = 0;
const TOTAL_TIME = 1;
const EXACT_TIME = 2;

/**
 * The best candidate for a slot. Ranks are compared in order: service, time, network, level, then
 * document order (inline, so no key arrays are built per candidate).
 */
function best(candidates: readonly Candidate[], inNetwork: boolean, individual: boolean, timeMode: number, code: number): Candidate | undefined {
  let winner: Candidate | undefined;
  let ws = 0;
  let wt = 0;
  let wn = 0;
  let wl = 0;
  let wo = 0;
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i]!;
    const row = candidate.row;
    const s = row.service;
    const t = timeMode === ANY_TIME ? 0 : timeMode === TOTAL_TIME ? row.total : row.time === code ? 0 : -1;
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
      winner = candidate;
      ws = s;
      wt = t;
      wn = n;
      wl = l;
      wo = o;
    }
  }
  return winner;
}

function decimalOf(candidate: Candidate): Decimal | null {
  if (candidate.decimal === undefined) candidate.decimal = parseDecimal(candidate.row.value);
  return candidate.decimal;
}

function money(candidate: Candidate | undefined): string {
  if (candidate === undefined) return NOT_AVAILABLE;
  return (candidate.text ??= moneyTextOrNA(candidate.row.value));
}

function percent(candidate: Candidate | undefined): string {
  if (candidate === undefined) return NOT_AVAILABLE;
  return (candidate.text ??= percentTextOrNA(candidate.row.value));
}

function figures(candidates: Candidates, inNetwork: boolean, individual: boolean): BenefitFigures {
  const deductible = candidates[DEDUCTIBLE]!;
  const copay = candidates[COPAY]!;
  const coinsurance = candidates[COINSURANCE]!;
  const stopLoss = candidates[STOP_LOSS]!;
  const totalRow = deductible.length === 0 ? undefined : best(deductible, inNetwork, individual, TOTAL_TIME, 0);
  const remainingRow = deductible.length === 0 ? undefined : best(deductible, inNetwork, individual, EXACT_TIME, 29);
  let remainingText: string;
  if (remainingRow) {
    remainingText = money(remainingRow);
  } else if (totalRow && decimalOf(totalRow)) {
    const usedRow = best(deductible, inNetwork, individual, EXACT_TIME, 24);
    const used = usedRow ? decimalOf(usedRow) : null;
    remainingText = used ? moneyOrNA(max(subtract(decimalOf(totalRow)!, used), ZERO)) : NOT_AVAILABLE;
  } else {
    remainingText = NOT_AVAILABLE;
  }
  return {
    copay: copay.length === 0 ? NOT_AVAILABLE : money(best(copay, inNetwork, individual, ANY_TIME, 0)),
    deductible: { total: totalRow ? money(totalRow) : NOT_AVAILABLE, remaining: remainingText },
    coinsurance: coinsurance.length === 0 ? NOT_AVAILABLE : percent(best(coinsurance, inNetwork, individual, ANY_TIME, 0)),
    stopLoss: stopLoss.length === 0 ? NOT_AVAILABLE : money(best(stopLoss, inNetwork, individual, TOTAL_TIME, 0)),
  };
}

function block(candidates: Candidates, inNetwork: boolean): BenefitBlock {
  return { individual: figures(candidates, inNetwork, true), family: figures(candidates, inNetwork, false) };
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

/** Active if any EB01 is 1–5; else Inactive if any is 6–8; else Unknown. */
export function coverageStatusOf(rows: readonly BenefitRow[]): CoverageStatus {
  let inactive = false;
  for (let i = 0; i < rows.length; i++) {
    const status = rows[i]!.status;
    if (status === ACTIVE) return 'Active';
    if (status === INACTIVE) inactive = true;
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
  return summarizeBenefits(readBenefitRows(patient ? patient.benefits : []), payerNameOf(doc));
}

/** The summary from the patient loop's EB rows and the 2100A NM103 ('' or undefined when absent). */
export function summarizeBenefits(rows: readonly BenefitRow[], payerName: string | undefined): BenefitSummary {
  // When the patient is billed under Part B, the Part A rows say nothing about what they owe.
  let partB = false;
  for (let i = 0; i < rows.length && !partB; i++) partB = rows[i]!.medicare === PART_B;

  const candidates: Candidate[][] = [[], [], [], []];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.field === NO_FIELD || (partB && row.medicare === PART_A)) continue;
    candidates[row.field]!.push({ row, decimal: undefined, text: undefined });
  }

  const summary: BenefitSummary = {
    inNetwork: block(candidates, true),
    outNetwork: block(candidates, false),
    coverageStatus: coverageStatusOf(rows),
  };
  if (payerName !== undefined && payerName !== '') summary.payerName = payerName;
  return summary;
}
