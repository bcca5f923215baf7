/**
 * One estimate line's arithmetic (docs/eligibility.md#estimate and #estimate-revision-2), on whole cents
 * (bigint), never floats: not covered, a met out-of-pocket maximum, a per-visit deductible, then a copay or
 * the yearly deductible and coinsurance, then the out-of-pocket cap, against the running balances of the
 * lines before. Which figures a line uses, and which facts of the reply apply, is estimate.ts's; a figure
 * the payer did not give is named in `missing`, never guessed.
 */
import { NOT_KNOWN, type Figures, type LevelFigures, type Money } from './figures.js';
import type { EstimateLine } from './types.js';

/** A figure a line could not be sure of (docs/eligibility.md#estimate-revision-2). */
export type MissingFigure = NonNullable<EstimateLine['missing']>[number];

/** What earlier lines used up: yearly deductible applied and everything paid toward the out-of-pocket maximum. */
export interface Balances {
  deductibleUsed: bigint;
  paid: bigint;
}

/** What applies to one line besides its figures. */
export interface LineRules {
  /** Step 1: not covered (in network, or out of network where the line is). */
  notCovered: boolean;
  /** The entry's messages waive the deductible (DED WAIVED). */
  deductibleWaived: boolean;
  /** FAMILY_LEVEL_ONLY: a remaining the individual lacks is the family's. */
  familyOnly: boolean;
  /** The reply has no deductible row: $0 for the arithmetic, named. */
  noDeductible: boolean;
  /** Original Medicare has no out-of-pocket maximum: its absence is not named. */
  noOutOfPocketMaximum: boolean;
}

export interface Parts {
  copay: bigint;
  deductible: bigint | undefined;
  coinsurance: bigint | undefined;
}

/** A line's parts and what the patient owes (undefined: not known), with what it misses. */
export interface LineResult {
  parts: Parts;
  owes: bigint | undefined;
  missing: MissingFigure[];
}

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
const atLeastZero = (a: bigint): bigint => (a < 0n ? 0n : a);

/** cents × basis points / 10,000, rounded half away from zero to the cent (amounts are never negative). */
const share = (cents: bigint, basisPoints: bigint): bigint => (cents * basisPoints * 2n + 10_000n) / 20_000n;

/** A figure to charge or cap with: a payer's negative amount counts as none, like a figure not known. */
const usable = (figure: Money): bigint | undefined => (figure === NOT_KNOWN || figure < 0n ? undefined : figure);

/** Mock levels have no out-of-pocket remaining and no per-visit deductible. */
const real = (level: Figures): Partial<LevelFigures> => ('stopLossRemaining' in level ? (level as LevelFigures) : {});

/**
 * The individual remaining capped by the family's when both are known; under FAMILY_LEVEL_ONLY the family's
 * stands in for an individual one the payer did not give.
 */
function remainingOf(individual: Money, family: Money, familyOnly: boolean): bigint | undefined {
  const own = usable(individual);
  const all = usable(family);
  if (own === undefined) return familyOnly ? all : undefined;
  return all === undefined ? own : min(own, all);
}

/** The per-visit (episode, admission) deductible of the level: the individual's, else the family's (a per-person charge). */
const perOccurrenceOf = (own: Figures, family: Figures): bigint | undefined =>
  usable(real(own).perOccurrenceDeductible?.amount ?? real(family).perOccurrenceDeductible?.amount ?? NOT_KNOWN);

const ZERO_PARTS: Parts = { copay: 0n, deductible: 0n, coinsurance: 0n };

/** Step 2 or 3 on what is left after the per-visit deductible. */
function charge(rest: bigint, own: Figures, family: Figures, rules: LineRules, balances: Balances): { parts: Parts; missing: MissingFigure[] } {
  if (rest === 0n) return { parts: ZERO_PARTS, missing: [] };
  const copay = usable(own.copay);
  const rate = own.coinsurance;
  const coinsuranceAbove0 = rate !== NOT_KNOWN && rate > 0n;
  // Step 2: a copay above $0 is the line's cost share; beside a coinsurance above 0% the payer does not say whether both apply.
  if (copay !== undefined && copay > 0n) {
    return { parts: { copay: min(copay, rest), deductible: 0n, coinsurance: 0n }, missing: coinsuranceAbove0 ? ['coinsuranceAfterCopay'] : [] };
  }
  // Step 3: the yearly deductible, then coinsurance on the rest.
  const missing: MissingFigure[] = [];
  let deductible: bigint | undefined = 0n;
  if (!rules.deductibleWaived) {
    let remaining = remainingOf(own.deductible.remaining, family.deductible.remaining, rules.familyOnly);
    if (remaining === undefined && rules.noDeductible) remaining = 0n;
    if (remaining === undefined || rules.noDeductible) missing.push('deductibleRemaining');
    deductible = remaining === undefined ? undefined : min(rest, atLeastZero(remaining - balances.deductibleUsed));
  }
  const after = deductible === undefined ? undefined : rest - deductible;
  if (rate === NOT_KNOWN && after !== 0n) missing.push('coinsurance');
  const coinsurance = after === 0n ? 0n : after === undefined || rate === NOT_KNOWN ? undefined : share(after, rate);
  return { parts: { copay: 0n, deductible, coinsurance }, missing };
}

/** Step 4: the out-of-pocket cap takes back coinsurance first, then deductible, then copay. */
function capParts(parts: { copay: bigint; deductible: bigint; coinsurance: bigint }, room: bigint) {
  let excess = atLeastZero(parts.copay + parts.deductible + parts.coinsurance - room);
  const take = (part: bigint): bigint => {
    const taken = min(part, excess);
    excess -= taken;
    return part - taken;
  };
  const coinsurance = take(parts.coinsurance);
  const deductible = take(parts.deductible);
  const copay = take(parts.copay);
  return { copay, deductible, coinsurance };
}

/** One line against the running balances, which it moves when its figures are known. */
export function chargeLine(amount: bigint, own: Figures, family: Figures, rules: LineRules, balances: Balances): LineResult {
  // Step 1: the whole amount, outside the out-of-pocket maximum.
  if (rules.notCovered) return { parts: ZERO_PARTS, owes: amount, missing: [] };
  const cap = remainingOf(real(own).stopLossRemaining ?? NOT_KNOWN, real(family).stopLossRemaining ?? NOT_KNOWN, rules.familyOnly);
  const room = cap === undefined ? undefined : atLeastZero(cap - balances.paid);
  // Out-of-pocket maximum met: nothing else matters.
  if (room === 0n) return { parts: ZERO_PARTS, owes: 0n, missing: [] };
  // A per-visit deductible is charged first (the deductible waiver covers it too).
  const perVisit = rules.deductibleWaived ? 0n : min(amount, perOccurrenceOf(own, family) ?? 0n);
  const { parts: charged, missing } = charge(amount - perVisit, own, family, rules, balances);
  if (charged.deductible === undefined || charged.coinsurance === undefined) {
    return { parts: { ...charged, deductible: charged.deductible === undefined ? undefined : perVisit + charged.deductible }, owes: undefined, missing };
  }
  const whole = { copay: charged.copay, deductible: perVisit + charged.deductible, coinsurance: charged.coinsurance };
  const parts = room === undefined ? whole : capParts(whole, room);
  if (room === undefined && !rules.noOutOfPocketMaximum) missing.push('stopLossRemaining');
  const owes = parts.copay + parts.deductible + parts.coinsurance;
  // The per-visit deductible was charged first, so a cap takes back the yearly deductible before it.
  balances.deductibleUsed += atLeastZero(parts.deductible - perVisit);
  balances.paid += owes;
  return { parts, owes, missing };
}
