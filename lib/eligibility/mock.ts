import { EXACT, type ExactError } from '../errors/index.js';
import { basisPoints, cents, NOT_KNOWN, type Block, type Blocks, type Figures, type Money, type Rate } from './figures.js';
import { presentSpecBlocks } from './present.js';
import type { MockEligibilityBody } from './types.js';
import { mockCobResult } from '../cob/mock.js';
import { matchMockScenario, type MockPatient } from '../mock/patients.js';
import type { EstimateRequest } from '../validation/schemas.js';
import { MOCK_SUCCESS_MESSAGE } from '../validation/responses/vocabulary.js';
import { estimateOf } from './estimate.js';

/**
 * Mock mode (docs/eligibility.md#mock-mode): four fixed scenarios, matched exactly and case-sensitively on seven
 * fields. No upstream call, no charge, no enrollment check.
 */

/** Dollars (exact: at most two decimals) as cents; null for a figure the set does not have. */
const usd = (dollars: number | null): Money => (dollars === null ? NOT_KNOWN : cents(BigInt(Math.round(dollars * 100))));
/** A whole percentage as basis points; null for none. */
const percent = (whole: number | null): Rate => (whole === null ? NOT_KNOWN : basisPoints(BigInt(whole * 100)));

/** [copay, deductible total, deductible remaining, coinsurance (%), stopLoss], dollars and percent; null is N/A. */
type Row = readonly [number | null, number | null, number | null, number | null, number | null];

const figures = ([copay, total, remaining, coinsurance, stopLoss]: Row): Figures => ({
  copay: usd(copay),
  deductible: { total: usd(total), remaining: usd(remaining) },
  coinsurance: percent(coinsurance),
  stopLoss: usd(stopLoss),
});
const block = (individual: Row, family: Row): Block<Figures> => ({ individual: figures(individual), family: figures(family) });
const NONE: Row = [null, null, null, null, null];

/** The sets' fixed figures (docs/eligibility.md#mock-mode), formatted like a real answer's. */
const MOCK_BLOCKS: Record<number, Blocks<Figures>> = {
  1: {
    inNetwork: block([20, 500, 200, 10, 2_000], [50, 1_000, 500, 20, 5_000]),
    outNetwork: block([40, 1_000, 800, 30, 4_000], [100, 2_000, 1_500, 40, 10_000]),
  },
  2: {
    inNetwork: block([null, 3_000, 3_000, 0, 6_000], [null, 6_000, 4_250.5, 0, 12_000]),
    outNetwork: block([null, 6_000, 6_000, 40, 12_000], [null, 12_000, 12_000, 40, 24_000]),
  },
  3: {
    inNetwork: block([25, 250, 0, 20, 3_500], [25, 750, 310, 20, 7_000]),
    outNetwork: block(NONE, NONE),
  },
};

export type { MockEligibilityBody };

/** The mock answer: a 200 body with the figures it was formatted from, or one of its exact error bodies (docs/api.md#mock-mode). */
export function mockEligibility(
  request: MockPatient & { runCobCheck?: boolean; estimate?: EstimateRequest },
): { ok: true; body: MockEligibilityBody; figures: Blocks<Figures> } | { ok: false; error: ExactError } {
  const scenario = matchMockScenario(request);
  if (scenario === undefined) return { ok: false, error: EXACT.MOCK_NOT_FOUND };
  const blocks = MOCK_BLOCKS[scenario];
  if (!blocks) return { ok: false, error: EXACT.MOCK_ELIGIBILITY_ERROR };
  const body: MockEligibilityBody = { ...presentSpecBlocks(blocks), message: MOCK_SUCCESS_MESSAGE };
  if (request.estimate) body.estimate = estimateOf(request.estimate, blocks);
  const cob = request.runCobCheck === true ? mockCobResult(scenario) : undefined;
  if (cob) body.cob = cob;
  return { ok: true, body, figures: blocks };
}
