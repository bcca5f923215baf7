/**
 * What the estimate needs from the patient's rows beyond the figures (docs/eligibility.md#estimate-revision-2):
 * the service types excluded out of network, whether the plan excludes everything out of network, whether
 * the reply has a deductible row at all, and whether the coverage is Original Medicare.
 */
import { type BenefitRow, HEALTH_PLAN, lists } from './benefit-row.js';
import type { Selection } from './candidates.js';
import type { EstimateFacts } from './figures.js';

/** EB01 I: not covered; C: deductible. EB12 N: out of network only (W is both networks). */
const NOT_COVERED = 'I';
const DEDUCTIBLE = 'C';
const OUT_OF_NETWORK = 'N';

const isExclusion = (row: BenefitRow): boolean => row.info === NOT_COVERED;
const outOfNetworkOnly = (row: BenefitRow): boolean => row.network === OUT_OF_NETWORK;

export function estimateFactsOf(rows: readonly BenefitRow[], selection: Selection): EstimateFacts {
  const exclusions = selection.candidates.filter(isExclusion);
  const excluded = new Set<string>();
  for (const row of exclusions) if (outOfNetworkOnly(row)) for (const code of row.services) excluded.add(code);
  const planExclusions = exclusions.filter((row) => lists(row, HEALTH_PLAN));
  return {
    excludedOutOfNetwork: [...excluded],
    planExcludedOutOfNetwork: planExclusions.length > 0 && planExclusions.every(outOfNetworkOnly),
    deductibleReported: rows.some((row) => row.info === DEDUCTIBLE),
    originalMedicare: selection.noFamily,
  };
}
