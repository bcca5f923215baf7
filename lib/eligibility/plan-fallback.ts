/**
 * Per-service figures fall back to the plan (docs/eligibility.md#per-service-figures-fall-back-to-the-plan):
 * a `benefits` slot that no row listing the code fills takes the same slot computed over the
 * plan-level rows only (EB03 30, 96 on a Part B row, or none), and the entry says which fields did.
 * A figure the plan-wide summary took from another service's row (a 98 copay) never spreads this way.
 */
import { PLAN_FIELDS } from '../validation/responses/vocabulary.js';
import { HEALTH_PLAN, isPartB, lists, type BenefitRow } from './benefit-row.js';
import { NOT_KNOWN, noFigures, type Block, type Blocks, type LevelFigures } from './figures.js';
import { blocks, rowsByField } from './summary.js';
import type { PlanField } from './types.js';

/** CMS reports the Part B deductible under 96 (docs/eligibility.md#filling-a-slot). */
const PART_B_PLAN = '96';

const isPlanLevel = (row: BenefitRow): boolean => row.services.length === 0 || lists(row, HEALTH_PLAN) || (isPartB(row) && lists(row, PART_B_PLAN));

export type PlanLevel = Blocks;

/** The benefit blocks (docs/eligibility.md#filling-a-slot) over the plan-level candidates only. */
export function planLevelBlocks(candidates: readonly BenefitRow[], noFamily: boolean): PlanLevel {
  return blocks(rowsByField(candidates.filter(isPlanLevel)), { rankService: true, noFamily });
}

/** `fromPlan` lists its fields in the schema's order. */
const FIELD_ORDER: readonly PlanField[] = PLAN_FIELDS;

/** One slot: the service's own figure, else the plan's (noting the field when the plan had one). */
const slot = <T>(own: T, plan: T, field: PlanField, used: Set<PlanField>): T => {
  if (own !== NOT_KNOWN || plan === NOT_KNOWN) return own;
  used.add(field);
  return plan;
};

function level(own: LevelFigures, plan: LevelFigures, used: Set<PlanField>): LevelFigures {
  return {
    copay: slot(own.copay, plan.copay, 'copay', used),
    deductible: {
      total: slot(own.deductible.total, plan.deductible.total, 'deductible', used),
      remaining: slot(own.deductible.remaining, plan.deductible.remaining, 'deductible', used),
    },
    coinsurance: slot(own.coinsurance, plan.coinsurance, 'coinsurance', used),
    stopLoss: slot(own.stopLoss, plan.stopLoss, 'stopLoss', used),
    stopLossRemaining: slot(own.stopLossRemaining, plan.stopLossRemaining, 'stopLoss', used),
  };
}

const filled = (own: Block, plan: Block, used: Set<PlanField>): Block => ({
  individual: level(own.individual, plan.individual, used),
  family: level(own.family, plan.family, used),
});

/** The entry's blocks with every not-known slot the plan level fills, and `fromPlan` in the documented field order. */
export function withPlanFigures(own: Blocks, plan: PlanLevel, networks: { in: boolean; out: boolean }): Blocks & { fromPlan: PlanField[] } {
  const used = new Set<PlanField>();
  const inNetwork = networks.in ? filled(own.inNetwork, plan.inNetwork, used) : own.inNetwork;
  const outNetwork = networks.out ? filled(own.outNetwork, plan.outNetwork, used) : own.outNetwork;
  return { inNetwork, outNetwork, fromPlan: FIELD_ORDER.filter((field) => used.has(field)) };
}

/** A block with every slot not known (an out-of-network exclusion, docs/eligibility.md#not-covered-means-in-network). */
export const emptyBlock = (): Block => ({ individual: noFigures(), family: noFigures() });
