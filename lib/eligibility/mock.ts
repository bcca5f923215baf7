import { EXACT, type ExactError } from '../errors/index.js';
import type { MockEligibilityBody, SpecBlock as BenefitBlock, SpecFigures as BenefitFigures } from './types.js';
import { mockCobResult } from '../cob/mock.js';
import { matchMockScenario, type MockPatient } from '../mock/patients.js';
import type { EstimateRequest } from '../validation/schemas.js';
import { MOCK_SUCCESS_MESSAGE } from '../validation/responses/vocabulary.js';
import { estimateOf } from './estimate.js';

/**
 * Mock mode (docs/eligibility.md#mock-mode): four fixed scenarios, matched exactly and case-sensitively on seven
 * fields. No upstream call, no charge, no enrollment check.
 */

/** [copay, deductible total, deductible remaining, coinsurance, stopLoss] */
type Row = readonly [string, string, string, string, string];

const figures = ([copay, total, remaining, coinsurance, stopLoss]: Row): BenefitFigures => ({
  copay,
  deductible: { total, remaining },
  coinsurance,
  stopLoss,
});
const block = (individual: Row, family: Row): BenefitBlock => ({ individual: figures(individual), family: figures(family) });
const NONE: Row = ['N/A', 'N/A', 'N/A', 'N/A', 'N/A'];

const MOCK_BLOCKS: Record<number, { inNetwork: BenefitBlock; outNetwork: BenefitBlock }> = {
  1: {
    inNetwork: block(['$20.00', '$500.00', '$200.00', '10%', '$2,000.00'], ['$50.00', '$1,000.00', '$500.00', '20%', '$5,000.00']),
    outNetwork: block(['$40.00', '$1,000.00', '$800.00', '30%', '$4,000.00'], ['$100.00', '$2,000.00', '$1,500.00', '40%', '$10,000.00']),
  },
  2: {
    inNetwork: block(['N/A', '$3,000.00', '$3,000.00', '0%', '$6,000.00'], ['N/A', '$6,000.00', '$4,250.50', '0%', '$12,000.00']),
    outNetwork: block(['N/A', '$6,000.00', '$6,000.00', '40%', '$12,000.00'], ['N/A', '$12,000.00', '$12,000.00', '40%', '$24,000.00']),
  },
  3: {
    inNetwork: block(['$25.00', '$250.00', '$0.00', '20%', '$3,500.00'], ['$25.00', '$750.00', '$310.00', '20%', '$7,000.00']),
    outNetwork: block(NONE, NONE),
  },
};

export type { MockEligibilityBody };

/** The mock answer: a 200 body, or one of its exact error bodies (docs/api.md#mock-mode). */
export function mockEligibility(
  request: MockPatient & { runCobCheck?: boolean; estimate?: EstimateRequest },
): { ok: true; body: MockEligibilityBody } | { ok: false; error: ExactError } {
  const scenario = matchMockScenario(request);
  if (scenario === undefined) return { ok: false, error: EXACT.MOCK_NOT_FOUND };
  const blocks = MOCK_BLOCKS[scenario];
  if (!blocks) return { ok: false, error: EXACT.MOCK_ELIGIBILITY_ERROR };
  const body: MockEligibilityBody = { inNetwork: blocks.inNetwork, outNetwork: blocks.outNetwork, message: MOCK_SUCCESS_MESSAGE };
  if (request.estimate) body.estimate = estimateOf(request.estimate, blocks);
  const cob = request.runCobCheck === true ? mockCobResult(scenario) : undefined;
  if (cob) body.cob = cob;
  return { ok: true, body };
}
