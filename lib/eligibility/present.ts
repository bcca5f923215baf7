/**
 * The REST answer's figures as text (docs/eligibility.md#figures-inside-the-service): the one place
 * that turns the numeric figures of figures.ts into "$1,234.50", "12.5%" and "N/A" for a JSON body.
 * Everything else of the answer is passed through as it is, keys in the same order.
 *
 * An edge that answers in another form (FHIR's Money and unsignedInt) gets the numbers themselves beside
 * the body (route.ts#eligibilityAnswer) and never reads the text back.
 */
import { formatMoney, formatRate } from './format.js';
import {
  NOT_KNOWN,
  type Block,
  type Blocks,
  type Figures,
  type LevelFigures,
  type LimitationFigures,
  type Money,
  type ProcedureFigures,
  type Rate,
  type ServiceFigures,
  type SummaryFigures,
} from './figures.js';
import {
  NOT_AVAILABLE,
  type BenefitBlock,
  type BenefitFigures,
  type BenefitSummary,
  type Limitation,
  type ProcedureBenefit,
  type ServiceBenefit,
  type SpecBlock,
  type SpecFigures,
} from './types.js';

/** Money as the REST answer shows it: "$1,234.50", "-$5.00", or "N/A" when not known. */
export const moneyText = (money: Money): string => (money === NOT_KNOWN ? NOT_AVAILABLE : formatMoney(money));

/** A rate as the REST answer shows it: "20%", "12.5%", or "N/A" when not known. */
export const rateText = (rate: Rate): string => (rate === NOT_KNOWN ? NOT_AVAILABLE : formatRate(rate));

const specLevel = (figures: Figures): SpecFigures => ({
  copay: moneyText(figures.copay),
  deductible: { total: moneyText(figures.deductible.total), remaining: moneyText(figures.deductible.remaining) },
  coinsurance: rateText(figures.coinsurance),
  stopLoss: moneyText(figures.stopLoss),
});

const level = (figures: LevelFigures): BenefitFigures => ({
  copay: moneyText(figures.copay),
  deductible: { total: moneyText(figures.deductible.total), remaining: moneyText(figures.deductible.remaining) },
  coinsurance: rateText(figures.coinsurance),
  stopLoss: moneyText(figures.stopLoss),
  stopLossRemaining: moneyText(figures.stopLossRemaining),
  ...(figures.perOccurrenceDeductible === undefined
    ? {}
    : { perOccurrenceDeductible: { amount: formatMoney(figures.perOccurrenceDeductible.amount), per: figures.perOccurrenceDeductible.per } }),
});

/** A mock answer's blocks (five figures a level, no stopLossRemaining) as text. */
export const presentSpecBlocks = (blocks: Blocks<Figures>): { inNetwork: SpecBlock; outNetwork: SpecBlock } => ({
  inNetwork: { individual: specLevel(blocks.inNetwork.individual), family: specLevel(blocks.inNetwork.family) },
  outNetwork: { individual: specLevel(blocks.outNetwork.individual), family: specLevel(blocks.outNetwork.family) },
});

/** One block of a real answer as text. */
export const presentBlock = (block: Block): BenefitBlock => ({ individual: level(block.individual), family: level(block.family) });

const presentLimitation = (limitation: LimitationFigures): Limitation =>
  limitation.amount === undefined ? (limitation as Limitation) : { ...limitation, amount: formatMoney(limitation.amount) };

/**
 * The whole summary as the REST answer has it. Entries whose rows are the same share their block
 * objects (benefits.ts computes them once): each is formatted once too.
 */
export function presentSummary(summary: SummaryFigures): BenefitSummary {
  const shown = new Map<Block, BenefitBlock>();
  const block = (figures: Block): BenefitBlock => {
    let text = shown.get(figures);
    if (text === undefined) {
      text = presentBlock(figures);
      shown.set(figures, text);
    }
    return text;
  };
  const service = (entry: ServiceFigures): ServiceBenefit => ({
    ...entry,
    inNetwork: block(entry.inNetwork),
    outNetwork: block(entry.outNetwork),
    limitations: entry.limitations.map(presentLimitation),
  });
  const procedure = (entry: ProcedureFigures): ProcedureBenefit => ({ ...entry, inNetwork: block(entry.inNetwork), outNetwork: block(entry.outNetwork) });
  // Spread first so every key keeps the summary's order; `procedures` is present only when asked for.
  // The estimate's facts are the service's own, never shown.
  const { estimateFacts: _hidden, ...shownSummary } = summary;
  return {
    ...shownSummary,
    inNetwork: block(summary.inNetwork),
    outNetwork: block(summary.outNetwork),
    benefits: summary.benefits.map(service),
    procedures: summary.procedures?.map(procedure),
  };
}

/** What an answer body's figures were: the plan-wide blocks, and a real answer's entries. */
export type AnswerFigures = Blocks<Figures> & { benefits?: readonly ServiceFigures[]; procedures?: readonly ProcedureFigures[] };
