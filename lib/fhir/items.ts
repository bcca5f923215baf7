import type {
  CodeableConcept,
  CoverageEligibilityResponseInsuranceItem as Item,
  CoverageEligibilityResponseInsuranceItemBenefit as Benefit,
  Money,
} from '@medplum/fhirtypes';
import { basisPointsOf, centsOf } from '../eligibility/format.js';
import type { BenefitBlock, SpecFigures, BenefitFigures, ServiceStatus } from '../eligibility/types.js';
import { ANNUAL_TERM, BENEFIT_TYPES, NETWORKS, UNITS, type FigureName } from './codes.js';

/**
 * Our figures in FHIR's terms (docs/fhir.md#benefits): one item per network × unit of a service type or
 * procedure, each figure a `benefit`. Money text ("$1,234.50") becomes Money in USD; "N/A" becomes no
 * value, never a zero. Figures are read back by the formatter's inverse (lib/eligibility/format.ts), and
 * arithmetic is on whole cents.
 */

/** A level's figures: the five of a mock answer or those of a real check (with stopLossRemaining). */
type Figures = SpecFigures | BenefitFigures;
type Block = BenefitBlock | { individual: SpecFigures; family: SpecFigures };

/**
 * Money text as a number of cents, for FHIR's JSON numbers: whole dollars, then the cents, each turned into a
 * number once (exact up to 2^53 − 1 cents); undefined for "N/A", a negative figure or no figure at all.
 */
function moneyCents(value: string | undefined): number | undefined {
  const cents = value === undefined ? undefined : centsOf(value);
  return cents === undefined ? undefined : Number(cents / 100n) * 100 + Number(cents % 100n);
}

/** FHIR Money: dollars as a JSON number. */
const usd = (cents: number): Money => ({ value: cents / 100, currency: 'USD' });

/** An accumulator (deductible, out-of-pocket maximum): allowed = total, used = total − remaining when both are known. */
function accumulator(type: CodeableConcept, total: string, remaining: string | undefined): Benefit | undefined {
  const totalCents = moneyCents(total);
  if (totalCents === undefined) return undefined;
  const remainingCents = moneyCents(remaining);
  const benefit: Benefit = { type, allowedMoney: usd(totalCents) };
  // A remaining above the total is a payer inconsistency: the total stands, no "used" is made up.
  if (remainingCents !== undefined && remainingCents <= totalCents) benefit.usedMoney = usd(totalCents - remainingCents);
  return benefit;
}

/** The benefits of one level, in the order deductible, copay, coinsurance, out-of-pocket maximum. */
function benefitsOf(figures: Figures): Benefit[] {
  const benefits: (Benefit | undefined)[] = [];
  benefits.push(accumulator(typeOf('deductible'), figures.deductible.total, figures.deductible.remaining));
  const copay = moneyCents(figures.copay);
  if (copay !== undefined) benefits.push({ type: typeOf('copay'), allowedMoney: usd(copay) });
  const coinsurance = basisPointsOf(figures.coinsurance);
  // unsignedInt is a whole number of percent and never negative; a fractional percentage keeps its text, a negative one is no benefit.
  if (coinsurance !== undefined && coinsurance >= 0n) {
    benefits.push(
      coinsurance % 100n === 0n
        ? { type: typeOf('coinsurance'), allowedUnsignedInt: Number(coinsurance / 100n) }
        : { type: typeOf('coinsurance'), allowedString: figures.coinsurance },
    );
  }
  const remaining = 'stopLossRemaining' in figures ? figures.stopLossRemaining : undefined;
  benefits.push(accumulator(typeOf('stopLoss'), figures.stopLoss, remaining));
  return benefits.filter((benefit): benefit is Benefit => benefit !== undefined);
}

/** What one item is about: a service type (category) or a procedure (productOrService), with its flags. */
export interface ItemSubject {
  category?: CodeableConcept;
  productOrService?: CodeableConcept;
  name?: string;
  status?: ServiceStatus;
  authorizationRequired?: boolean;
}

/**
 * The items of one service type or procedure: network × unit, those with at least one figure. A subject
 * with no figure but a flag (not covered, authorization) still gets one item, without network or unit.
 */
export function itemsOf(subject: ItemSubject, blocks: { inNetwork: Block; outNetwork: Block }): Item[] {
  const head: Item = {};
  if (subject.category) head.category = subject.category;
  if (subject.productOrService) head.productOrService = subject.productOrService;
  if (subject.name) head.name = subject.name;
  const flags: Item = {};
  if (subject.status === 'NotCovered') flags.excluded = true;
  if (subject.authorizationRequired !== undefined) flags.authorizationRequired = subject.authorizationRequired;

  const items: Item[] = [];
  for (const network of ['inNetwork', 'outNetwork'] as const) {
    for (const unit of ['individual', 'family'] as const) {
      const figures = blocks[network][unit];
      const benefit = benefitsOf(figures);
      if (benefit.length === 0) continue;
      const item: Item = { ...head, ...flags, network: { coding: [{ ...NETWORKS[network] }] }, unit: { coding: [{ ...UNITS[unit] }] } };
      if (accumulates(figures)) item.term = { coding: [{ ...ANNUAL_TERM }] };
      item.benefit = benefit;
      items.push(item);
    }
  }
  if (items.length === 0 && Object.keys(flags).length > 0) items.push({ ...head, ...flags });
  return items;
}

/** A fresh copy of a figure's benefit type, so no answer shares (and could change) the table's objects. */
const typeOf = (name: FigureName): CodeableConcept => structuredClone(BENEFIT_TYPES[name]) as CodeableConcept;

/** Whether a level carries a yearly accumulator (a deductible or an out-of-pocket maximum). */
const accumulates = (figures: Figures): boolean => moneyCents(figures.deductible.total) !== undefined || moneyCents(figures.stopLoss) !== undefined;
