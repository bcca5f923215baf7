/**
 * The sandbox payers answer per plan year (docs/api.md#sandboxes): a test patient's figures are those of
 * the plan year the sandbox knows, and a date of service outside it gets what that payer usually sends for
 * a member who is not covered on the date, so integrators can see the date-of-service rules work:
 *
 * - commercial plans (the sandbox PPO and HMO) run twelve months from their plan begin date (2025-01-01
 *   for most patients), or to the plan end date the patient has;
 * - Medicare's benefit period is the calendar year: the 2025 one, from the date of entitlement if later.
 *
 * A patient whose coverage is already inactive, a rejection (AAA) or a fault answers the same on any date.
 */
import type { EbRow, SandboxPatient } from './patients.js';

/** The benefit year the sandbox's figures describe. */
export const SANDBOX_BENEFIT_YEAR = 2025;

/** How a payer answers a date outside the member's plan: an inactive-coverage row, or a rejection. */
export type OutsidePlanAnswer = { kind: 'inactive' } | { kind: 'rejection'; code: string; followUp: string };

/**
 * Each sandbox payer's usual answer. The PPO and Medicare find the member and say the coverage is not
 * active on that date (EB*6, with the plan's dates); the HMO rejects the inquiry with AAA 62 (date of
 * service not within the allowable inquiry period; follow-up C, correct and resubmit), a 422 PAYER_REJECTED.
 */
export const OUTSIDE_PLAN: Readonly<Record<string, OutsidePlanAnswer>> = {
  SBXPPO: { kind: 'inactive' },
  CMS: { kind: 'inactive' },
  SBXHMO: { kind: 'rejection', code: '62', followUp: 'C' },
};

/** Medicare's benefit period is the calendar year, whatever the entitlement date. */
const CALENDAR_YEAR_PAYERS = new Set(['CMS']);

/** CCYYMMDD of the day before the same date a year later (20250101 → 20251231). */
function yearLater(begin: string): string {
  const date = new Date(Date.UTC(Number(begin.slice(0, 4)) + 1, Number(begin.slice(4, 6)) - 1, Number(begin.slice(6, 8)) - 1));
  return date.toISOString().slice(0, 10).replaceAll('-', '');
}

/** The plan year the sandbox answers with figures, as CCYYMMDD bounds (both included). */
export function planYear(patient: SandboxPatient): { begin: string; end: string } {
  const begin = patient.planBegin ?? `${SANDBOX_BENEFIT_YEAR}0101`;
  if (CALENDAR_YEAR_PAYERS.has(patient.payerId)) {
    const yearBegin = `${SANDBOX_BENEFIT_YEAR}0101`;
    const yearEnd = `${SANDBOX_BENEFIT_YEAR}1231`;
    return { begin: begin > yearBegin ? begin : yearBegin, end: patient.planEnd && patient.planEnd < yearEnd ? patient.planEnd : yearEnd };
  }
  return { begin, end: patient.planEnd ?? yearLater(begin) };
}

const hasActiveCoverage = (rows: readonly EbRow[] | undefined): boolean => (rows ?? []).some((row) => ['1', '2', '3', '4', '5'].includes(row.info));

/**
 * The patient as the payer sees them on `dateOfService` (CCYYMMDD; absent: the plan year's answer):
 * unchanged inside the plan year, otherwise the payer's usual answer for a date outside the plan.
 */
export function onDateOfService(patient: SandboxPatient, dateOfService: string | undefined): SandboxPatient {
  if (!dateOfService || patient.fault || patient.aaa || !hasActiveCoverage(patient.benefits)) return patient;
  const { begin, end } = planYear(patient);
  if (dateOfService >= begin && dateOfService <= end) return patient;
  const answer = OUTSIDE_PLAN[patient.payerId] ?? { kind: 'inactive' };
  if (answer.kind === 'rejection') return { ...patient, aaa: { code: answer.code, followUp: answer.followUp, loop: '2100C' } };
  const inactive: EbRow = { info: '6', services: ['30'], messages: ['COVERAGE NOT IN EFFECT ON THE DATE OF SERVICE'] };
  // The plan's own dates say why: the 2100 DTP*346/347 carry the plan year asked about.
  const { benefits: _benefits, subscriberBenefits: _subscriberBenefits, otherMemberFirst: _otherMemberFirst, ...person } = patient;
  return { ...person, planBegin: begin, planEnd: end, benefits: [inactive] };
}
