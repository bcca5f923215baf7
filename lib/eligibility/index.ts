/**
 * The eligibility answer (docs/eligibility.md): the 270 question, the 271 read into plan-wide and
 * per-service figures, other payers, notices and the estimate; the mock answers; the route.
 *
 * @example
 * ```ts
 * import { eligibilityRoute } from '../eligibility/index.js';
 * // A route for the shared HTTP pipeline: validates, checks enrollment, asks the clearinghouse, answers.
 * const route = eligibilityRoute(runtime);
 * ```
 */

export { checkEligibility } from './check.js';
export { NOT_KNOWN, type Block, type Figures, type LevelFigures, type Money, type SummaryFigures } from './figures.js';
export { interpret271, interpret271Figures } from './interpret.js';
export { mockEligibility } from './mock.js';
export { rateText } from './present.js';
export { readReply } from './reply.js';
export { cobPart, eligibilityAnswer, eligibilityBody, eligibilityRoute, loggedEligibilityCheck, type FiguredAnswer } from './route.js';
export {
  NOT_AVAILABLE,
  type BenefitBlock,
  type BenefitFigures,
  type CoverageStatus,
  type EligibilityBody,
  type EligibilityQuestion,
  type NoticeCode,
  type OtherPayer,
  type Plan,
  type ServiceBenefit,
  type ServiceStatus,
} from './types.js';

export { eligibilityPdf } from './printout.js';
export { ELIGIBILITY_REPRESENTATIONS } from './route.js';
