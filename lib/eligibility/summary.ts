/**
 * From candidate EB rows to the in/out-of-network blocks: each of the 24 slots is filled on its own
 * by the best fitting row (docs/eligibility.md#filling-a-slot), remaining figures as
 * docs/eligibility.md#remaining says. Rows arrive already read (benefit-row.ts) and selected
 * (candidates.ts); this module only ranks them and formats winners.
 */
import { ACTIVE, COINSURANCE, COPAY, DEDUCTIBLE, INACTIVE, NO_FIELD, STOP_LOSS, type BenefitRow } from './benefit-row.js';
import { max, moneyOrNA, moneyTextOrNA, parseDecimal, percentTextOrNA, subtract, ZERO, type Decimal } from './format.js';
import { NOT_AVAILABLE, type BenefitBlock, type BenefitFigures, type CoverageStatus } from './types.js';

/** Candidate rows per field, indexed by COPAY, COINSURANCE, DEDUCTIBLE, STOP_LOSS. */
export type FieldRows = [BenefitRow[], BenefitRow[], BenefitRow[], BenefitRow[]];

export const fieldRows = (): FieldRows => [[], [], [], []];

/** Adds a row to the list of its field (rows that feed no figure are left out). */
export function addRow(rows: FieldRows, row: BenefitRow): void {
  if (row.field !== NO_FIELD) rows[row.field]!.push(row);
}

/** How a slot ranks a row's EB06: any value, the total preference, or one exact code. */
const ANY_TIME = 0;
const TOTAL_TIME = 1;
const EXACT_TIME = 2;

/** How the blocks are computed: plan-wide (EB03 ranked) or for one service/procedure (EB03 already chosen). */
export interface BlockRules {
  rankService: boolean;
  noFamily: boolean;
}

/**
 * The best row for a slot. Ranks are compared in order: service, time, network, level, then
 * document order (inline, so no key arrays are built per row).
 */
function best(rows: readonly BenefitRow[], inNetwork: boolean, individual: boolean, timeMode: number, code: number, rankService: boolean): BenefitRow | undefined {
  let winner: BenefitRow | undefined;
  let ws = 0;
  let wt = 0;
  let wn = 0;
  let wl = 0;
  let wo = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const s = rankService ? row.service : 0;
    if (s < 0) continue;
    const t = timeMode === ANY_TIME ? 0 : timeMode === TOTAL_TIME ? row.total : row.time === code ? 0 : -1;
    if (t < 0) continue;
    const n = inNetwork ? row.networkIn : row.networkOut;
    if (n < 0) continue;
    const l = individual ? row.individual : row.family;
    if (l < 0) continue;
    const o = row.order;
    if (winner === undefined || (s !== ws ? s < ws : t !== wt ? t < wt : n !== wn ? n < wn : l !== wl ? l < wl : o < wo)) {
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

/** The row's figure as text, formatted on first use (a row can win many slots). */
function money(row: BenefitRow | undefined): string {
  if (row === undefined) return NOT_AVAILABLE;
  return (row.shown ??= moneyTextOrNA(row.value));
}

function percent(row: BenefitRow | undefined): string {
  if (row === undefined) return NOT_AVAILABLE;
  return (row.shown ??= percentTextOrNA(row.value));
}

function isZero(value: Decimal | null): boolean {
  return value !== null && value.units === 0n;
}

/**
 * Remaining (docs/eligibility.md#remaining): the best EB06 29 row; else the total minus the best
 * EB06 24 row, floored at 0; else $0.00 when the total is exactly 0; else N/A.
 */
function remaining(rows: readonly BenefitRow[], total: BenefitRow | undefined, inNetwork: boolean, individual: boolean, rankService: boolean): string {
  const left = best(rows, inNetwork, individual, EXACT_TIME, 29, rankService);
  if (left) return money(left);
  if (!total) return NOT_AVAILABLE;
  const totalValue = parseDecimal(total.value);
  if (totalValue === null) return NOT_AVAILABLE;
  const usedRow = best(rows, inNetwork, individual, EXACT_TIME, 24, rankService);
  const used = usedRow ? parseDecimal(usedRow.value) : null;
  if (used) return moneyOrNA(max(subtract(totalValue, used), ZERO));
  return isZero(totalValue) ? money(total) : NOT_AVAILABLE;
}

const NONE: BenefitFigures = Object.freeze({
  copay: NOT_AVAILABLE,
  deductible: Object.freeze({ total: NOT_AVAILABLE, remaining: NOT_AVAILABLE }),
  coinsurance: NOT_AVAILABLE,
  stopLoss: NOT_AVAILABLE,
  stopLossRemaining: NOT_AVAILABLE,
}) as BenefitFigures;

function figures(rows: FieldRows, inNetwork: boolean, individual: boolean, rules: BlockRules): BenefitFigures {
  if (!individual && rules.noFamily) return NONE;
  const rank = rules.rankService;
  const deductible = rows[DEDUCTIBLE];
  const stopLoss = rows[STOP_LOSS];
  const copay = rows[COPAY];
  const coinsurance = rows[COINSURANCE];
  const deductibleTotal = deductible.length === 0 ? undefined : best(deductible, inNetwork, individual, TOTAL_TIME, 0, rank);
  const stopLossTotal = stopLoss.length === 0 ? undefined : best(stopLoss, inNetwork, individual, TOTAL_TIME, 0, rank);
  return {
    copay: copay.length === 0 ? NOT_AVAILABLE : money(best(copay, inNetwork, individual, ANY_TIME, 0, rank)),
    deductible: {
      total: money(deductibleTotal),
      remaining: deductible.length === 0 ? NOT_AVAILABLE : remaining(deductible, deductibleTotal, inNetwork, individual, rank),
    },
    coinsurance: coinsurance.length === 0 ? NOT_AVAILABLE : percent(best(coinsurance, inNetwork, individual, ANY_TIME, 0, rank)),
    stopLoss: money(stopLossTotal),
    stopLossRemaining: stopLoss.length === 0 ? NOT_AVAILABLE : remaining(stopLoss, stopLossTotal, inNetwork, individual, rank),
  };
}

function block(rows: FieldRows, inNetwork: boolean, rules: BlockRules): BenefitBlock {
  return { individual: figures(rows, inNetwork, true, rules), family: figures(rows, inNetwork, false, rules) };
}

/** Blocks with every slot N/A: frozen and shared (answers are only ever serialized). */
const NONE_BLOCK: BenefitBlock = Object.freeze({ individual: NONE, family: NONE });
const NO_FIGURES = Object.freeze({ inNetwork: NONE_BLOCK, outNetwork: NONE_BLOCK });

/** The in- and out-of-network blocks over these rows. */
export function blocks(rows: FieldRows, rules: BlockRules): { inNetwork: BenefitBlock; outNetwork: BenefitBlock } {
  if (rows[0].length === 0 && rows[1].length === 0 && rows[2].length === 0 && rows[3].length === 0) return NO_FIGURES;
  return { inNetwork: block(rows, true, rules), outNetwork: block(rows, false, rules) };
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
