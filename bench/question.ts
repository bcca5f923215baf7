import type { EligibilityQuestion } from '../lib/eligibility/index.js';

/**
 * What the X12 benches ask of every reply: a date of service (so the date rule runs) and the
 * default service type; the answer then has every part (blocks, plan, people, benefits for every
 * code the reply lists, other payers, notices).
 */
export const QUESTION: EligibilityQuestion = { dateOfCoverage: '20250301' };
