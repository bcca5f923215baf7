import type {
  CodeableConcept,
  CoverageEligibilityResponseInsuranceItem as Item,
  CoverageEligibilityResponseInsuranceItemBenefit as Benefit,
  Money,
} from '@medplum/fhirtypes';
import { NOT_KNOWN, type Block, type Figures, type LevelFigures, type Money as Amount } from '../eligibility/figures.js';
import { rateText } from '../eligibility/present.js';
import type { ServiceBenefit, ServiceStatus } from '../eligibility/types.js';
import { ANNUAL_TERM, BENEFIT_TYPES, NETWORKS, OCCURRENCE_TERMS, UNITS, type FigureName } from './codes.js';

/**
 * Our figures in FHIR's terms (docs/fhir.md#benefits): one item per network × unit of a service type or
 * procedure, each figure a `benefit`. The figures are the answer's numbers (cents and basis points,
 * lib/eligibility/figures.ts), never its text: cents become Money in USD; a figure not known becomes no
 * value, never a zero. Arithmetic is on whole cents.
 */

/**
 * Cents as a number, for FHIR's JSON numbers: whole dollars, then the cents, each turned into a number
 * once (exact up to 2^53 − 1 cents); undefined for a figure not known, a negative figure or none at all.
 */
function moneyCents(value: Amount): number | undefined {
  return value === NOT_KNOWN || value < 0n ? undefined : Number(value / 100n) * 100 + Number(value % 100n);
}

/** FHIR Money: dollars as a JSON number. */
const usd = (cents: number): Money => ({ value: cents / 100, currency: 'USD' });

/** An accumulator (deductible, out-of-pocket maximum): allowed = total, used = total − remaining when both are known. */
function accumulator(type: CodeableConcept, total: Amount, remaining: Amount): Benefit | undefined {
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
  const coinsurance = figures.coinsurance;
  // unsignedInt is a whole number of percent and never negative; a fractional percentage is given as text, a negative one is no benefit.
  if (coinsurance !== NOT_KNOWN && coinsurance >= 0n) {
    benefits.push(
      coinsurance % 100n === 0n
        ? { type: typeOf('coinsurance'), allowedUnsignedInt: Number(coinsurance / 100n) }
        : { type: typeOf('coinsurance'), allowedString: rateText(coinsurance) },
    );
  }
  const remaining = 'stopLossRemaining' in figures ? (figures as LevelFigures).stopLossRemaining : NOT_KNOWN;
  benefits.push(accumulator(typeOf('stopLoss'), figures.stopLoss, remaining));
  return benefits.filter((benefit): benefit is Benefit => benefit !== undefined);
}

/** The answer's authorization per network (docs/eligibility.md#authorization-per-network). */
type Authorization = ServiceBenefit['authorization'];

/** What one item is about: a service type (category) or a procedure (productOrService), with its flags. */
export interface ItemSubject {
  category?: CodeableConcept;
  productOrService?: CodeableConcept;
  name?: string;
  status?: ServiceStatus;
  /** The entry's own flag: the in-network answer when it is true or false (items without a network use it). */
  authorizationRequired?: boolean;
  authorization?: Authorization;
  authorizationNotes?: readonly string[];
}

/** Said when only some of the payer's rows for a network require authorization ("some"). */
const SOME_SERVICES = 'The payer requires prior authorization for some services of this type in this network.';

/**
 * The authorization flags of one network's items (docs/fhir.md#benefits): `authorizationRequired`
 * from that network's answer ("some" counts as required, with a sentence saying so), and the payer's
 * notes as `authorizationSupporting` texts where it is required.
 */
function authorizationFlags(subject: ItemSubject, network: keyof Authorization): Item {
  const answer = subject.authorization?.[network];
  if (answer === undefined) return {};
  if (answer === false) return { authorizationRequired: false };
  const supporting = [...(answer === 'some' ? [SOME_SERVICES] : []), ...(subject.authorizationNotes ?? [])].map((text) => ({ text }));
  return { authorizationRequired: true, ...(supporting.length > 0 ? { authorizationSupporting: supporting } : {}) };
}

const NETWORK_KEYS = { inNetwork: 'in', outNetwork: 'out' } as const;

/**
 * The items of one service type or procedure: network × unit, those with at least one figure. A subject
 * with no figure but a flag (not covered, authorization) still gets one item, without network or unit.
 */
export function itemsOf(subject: ItemSubject, blocks: { inNetwork: Block<Figures>; outNetwork: Block<Figures> }): Item[] {
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
      const where = (): Item => ({
        ...head,
        ...(subject.status === 'NotCovered' ? { excluded: true } : {}),
        ...(subject.authorization === undefined ? flags : authorizationFlags(subject, NETWORK_KEYS[network])),
        network: { coding: [{ ...NETWORKS[network] }] },
        unit: { coding: [{ ...UNITS[unit] }] },
      });
      if (benefit.length > 0) {
        const item = where();
        if (accumulates(figures)) item.term = { coding: [{ ...ANNUAL_TERM }] };
        item.benefit = benefit;
        items.push(item);
      }
      const perOccurrence = perOccurrenceItem(figures);
      if (perOccurrence) items.push({ ...where(), ...perOccurrence });
    }
  }
  if (items.length === 0 && Object.keys(flags).length > 0) items.push({ ...head, ...flags });
  return items;
}

/**
 * A deductible charged per visit, episode or admission (docs/fhir.md#benefits): an item of its own, whose
 * term is the X12 time period, since the level's other item is annual.
 */
function perOccurrenceItem(figures: Figures): Pick<Item, 'term' | 'benefit'> | undefined {
  const deductible = 'perOccurrenceDeductible' in figures ? (figures as LevelFigures).perOccurrenceDeductible : undefined;
  const amount = deductible === undefined ? undefined : moneyCents(deductible.amount);
  if (deductible === undefined || amount === undefined) return undefined;
  const term = OCCURRENCE_TERMS[deductible.per];
  return { term: { coding: [{ ...term }], text: term.display }, benefit: [{ type: typeOf('deductible'), allowedMoney: usd(amount) }] };
}

/** A fresh copy of a figure's benefit type, so no answer shares (and could change) the table's objects. */
const typeOf = (name: FigureName): CodeableConcept => structuredClone(BENEFIT_TYPES[name]) as CodeableConcept;

/** Whether a level carries a yearly accumulator (a deductible or an out-of-pocket maximum). */
const accumulates = (figures: Figures): boolean => moneyCents(figures.deductible.total) !== undefined || moneyCents(figures.stopLoss) !== undefined;
