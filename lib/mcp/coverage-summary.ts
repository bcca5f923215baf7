/**
 * Summaries of the coverage-finding tools (docs/mcp.md#tools, docs/finding-coverage.md): figures and
 * statuses only, never the patient's names, dates of birth or member ids (the Medicare number
 * included: it is in the structured answer). Payer names are the payer's words: cleaned, cut and
 * quoted by the same rule as every summary (./summary.ts).
 */
import { cleanPayerText, eligibilitySummary } from './summary.js';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** "COMPLETE: 2 coverages found. 1. "AETNA" (as the payer wrote it): Active. …" or "PENDING: poll get … again." */
export function discoverySummary(body: unknown): string {
  if (!isObject(body)) return 'The insurance discovery answered.';
  if (body.status !== 'COMPLETE')
    return `PENDING: the discovery is still running; call discover_insurance's poll (GET /api/insurance-discovery/v1/{discoveryId}) later.`;
  const coverages = Array.isArray(body.coverages) ? body.coverages.filter(isObject) : [];
  if (coverages.length === 0) return 'COMPLETE: no coverage was found for this patient.';
  const lines = coverages.map(
    (c, i) =>
      `${i + 1}. ${JSON.stringify(cleanPayerText(String(c.payerName ?? '')))} (as the payer wrote it), payerId ${cleanPayerText(String(c.payerId ?? ''))}: ${cleanPayerText(String(c.coverageStatus ?? 'Unknown'))}.`,
  );
  return `COMPLETE: ${coverages.length} coverage${coverages.length === 1 ? '' : 's'} found. ${lines.join(' ')}`;
}

/** "Medicare number found (in the answer's mbi). Active; …" */
export function mbiSummary(body: unknown): string {
  if (!isObject(body)) return 'The Medicare number lookup answered.';
  return `Medicare number found (see mbi in the answer). ${eligibilitySummary(body.eligibility)}`;
}
