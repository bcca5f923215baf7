/**
 * Figures inside the service (docs/eligibility.md#figures-inside-the-service): money is whole cents and
 * rates are basis points, both exact integers (bigint: a payer's EB07 may have any number of digits); a
 * figure the payer did not give is NOT_KNOWN, a value of the type, never the text "N/A". The 271's
 * decimals become these once, where the rows are read (benefit-row.ts); only the edges turn them into
 * text: the REST answer (present.ts), the estimate and FHIR.
 */
import { parseDecimal, roundUnits, type Decimal } from './format.js';
import type { Occurrence } from '../validation/index.js';
import type { BenefitSummary, Limitation, ProcedureBenefit, ServiceBenefit } from './types.js';

declare const UNIT: unique symbol;
/** Whole cents: $1,234.50 is 123450n. A payer's negative amount stays a figure (-$5.00 is -500n). */
export type Cents = bigint & { readonly [UNIT]: 'cents' };
/** Hundredths of a percent: 20% is 2000n, 12.5% is 1250n. */
export type BasisPoints = bigint & { readonly [UNIT]: 'basis points' };

/** A figure the payer did not give (the REST answer shows it as "N/A"). */
export const NOT_KNOWN = undefined;
export type NotKnown = typeof NOT_KNOWN;
export type Money = Cents | NotKnown;
export type Rate = BasisPoints | NotKnown;

/** A count of cents as Cents (amounts the service computes itself: the estimate's). */
export const cents = (count: bigint): Cents => count as Cents;
export const basisPoints = (count: bigint): BasisPoints => count as BasisPoints;

/** An exact decimal amount as cents, rounded half away from zero: the one rounding of a final figure. */
export const toCents = (amount: Decimal): Cents => cents(roundUnits(amount, 2));

/**
 * An X12 decimal element (EB07) read exactly, or undefined when it is not a decimal (optional sign,
 * digits, at most one point; blanks around are ignored). Kept exact so that arithmetic on amounts
 * (total − year to date) rounds only its result.
 */
export const exactAmountOf = (text: string): Decimal | undefined => (text === '' ? undefined : (parseDecimal(text) ?? undefined));

/** An X12 decimal element (EB07) as money: "1234.5" → 123450 cents, "0.005" → 1 cent, "abc" → NOT_KNOWN. */
export function moneyOf(text: string): Money {
  const amount = exactAmountOf(text);
  return amount === undefined ? NOT_KNOWN : toCents(amount);
}

/**
 * A fraction (EB08) as a rate: × 10,000, rounded half away from zero (".2" → 2000, ".125" → 1250,
 * "0.12345" → 1235 basis points), NOT_KNOWN when it is not a decimal.
 */
export function rateOf(text: string): Rate {
  const fraction = exactAmountOf(text);
  return fraction === undefined ? NOT_KNOWN : basisPoints(roundUnits(fraction, 4));
}

/** The five figures of one level that mock answers carry. */
export interface Figures {
  copay: Money;
  deductible: { total: Money; remaining: Money };
  coinsurance: Rate;
  stopLoss: Money;
}

/** A deductible charged per visit, episode or admission (docs/eligibility.md#per-visit-deductibles). */
export interface PerOccurrenceDeductible {
  amount: Cents;
  per: Occurrence;
}

/**
 * A level of a real answer: the five figures, what is left of the out-of-pocket maximum, and a deductible
 * charged per visit, episode or admission when the payer gives one (docs/eligibility.md#per-visit-deductibles).
 */
export interface LevelFigures extends Figures {
  stopLossRemaining: Money;
  perOccurrenceDeductible?: PerOccurrenceDeductible;
}

export interface Block<F extends Figures = LevelFigures> {
  individual: F;
  family: F;
}

/** The in- and out-of-network blocks of the plan, a service type or a procedure. */
export interface Blocks<F extends Figures = LevelFigures> {
  inNetwork: Block<F>;
  outNetwork: Block<F>;
}

/** A limitation (docs/eligibility.md#limitations) with its amount in cents. */
export type LimitationFigures = Omit<Limitation, 'amount'> & { amount?: Cents };

/** A `benefits` entry with numeric figures (key order as the REST answer's). */
export type ServiceFigures = Omit<ServiceBenefit, 'inNetwork' | 'outNetwork' | 'limitations'> & Blocks & { limitations: LimitationFigures[] };

/** A `procedures` entry with numeric figures. */
export type ProcedureFigures = Omit<ProcedureBenefit, 'inNetwork' | 'outNetwork'> & Blocks;

/**
 * What the estimate needs from the reply's rows beyond the figures (docs/eligibility.md#estimate-revision-2);
 * never shown in the REST answer (present.ts leaves it out).
 */
export interface EstimateFacts {
  /** Service types that an out-of-network exclusion (EB01 I with EB12 N) lists. */
  excludedOutOfNetwork: readonly string[];
  /** The plan's only exclusions listing 30 are out of network: nothing is covered out of network. */
  planExcludedOutOfNetwork: boolean;
  /** Whether the patient's rows have any deductible (EB01 C) row at all. */
  deductibleReported: boolean;
  /** Original Medicare (docs/eligibility.md#original-medicare): it has no out-of-pocket maximum. */
  originalMedicare: boolean;
}

/** What a 271 answers for the patient, with numeric figures: the source of the REST answer, the estimate and FHIR. */
export type SummaryFigures = Omit<BenefitSummary, 'inNetwork' | 'outNetwork' | 'benefits' | 'procedures'> &
  Blocks & { benefits: ServiceFigures[]; procedures?: ProcedureFigures[]; estimateFacts: EstimateFacts };

/** Every slot of a level NOT_KNOWN. */
export const noFigures = (): LevelFigures => ({
  copay: NOT_KNOWN,
  deductible: { total: NOT_KNOWN, remaining: NOT_KNOWN },
  coinsurance: NOT_KNOWN,
  stopLoss: NOT_KNOWN,
  stopLossRemaining: NOT_KNOWN,
});

/** Whether a level has any of the five figures (stopLossRemaining aside). */
export const levelHasFigure = (figures: Figures): boolean =>
  [figures.copay, figures.deductible.total, figures.deductible.remaining, figures.coinsurance, figures.stopLoss].some((figure) => figure !== NOT_KNOWN);
